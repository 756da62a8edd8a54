"""A griffe extension for the API pages (``mkdocs.yml``): the docstrings are written in reST for
``help()`` and Sphinx, and Markdown reads two of their habits wrongly. A doctest's ``>>>`` is
a Markdown quote, so each doctest becomes a fenced ``pycon`` block; a role such as
:func:`~unoarena.seeding.derive` would show its markup, so it becomes a code span
(``derive``). A literal block's ``::`` becomes ``:``."""

from __future__ import annotations

import re
from typing import Any

import griffe

_ROLE = re.compile(r":(?:py:)?[a-z]+:`~?([^`<]*?)(?:\s*<([^>]+)>)?`")


def _role(match: re.Match[str]) -> str:
    """``:func:`~a.b.c``` -> ```c```, ``:mod:`a.b``` -> ```a.b```, a titled role -> its title."""
    text = match.group(1).strip()
    if ":`~" in match.group(0):
        text = text.rsplit(".", 1)[-1]
    return f"`{text}`"


def markdown(doc: str) -> str:
    """``doc`` with its doctests fenced and its roles made code spans."""
    out: list[str] = []
    lines = doc.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.lstrip().startswith(">>>"):
            indent = line[:len(line) - len(line.lstrip())]
            if out and out[-1].strip():
                out.append("")
            out.append(f"{indent}```pycon")
            while i < len(lines) and lines[i].strip():
                out.append(lines[i])
                i += 1
            out.append(f"{indent}```")
            continue
        line = _ROLE.sub(_role, line)
        if line.endswith("::") and line.strip() != "::":
            line = line[:-1]
        out.append(line)
        i += 1
    return "\n".join(out)


class RstToMarkdown(griffe.Extension):
    """Rewrite every docstring as it is loaded (see the module docstring)."""

    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        """Called for each module, class, function and attribute griffe reads."""
        if obj.docstring is not None:
            obj.docstring.value = markdown(obj.docstring.value)
