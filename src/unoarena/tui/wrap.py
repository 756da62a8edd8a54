"""Wrapping a line of text to a width in terminal cells, as Chinese and English both read it.

Rich wraps at spaces only, which suits English but not Chinese: a Chinese sentence has no spaces
between its words, only around the names and numbers in it ("北 抽了 4 張牌"), and breaking there
leaves "北 抽了 4" on one line and "張牌" on the next. Here a line may break between two Chinese
characters (as Chinese is set) and at a space between two words of Latin script, never at a
space beside a Chinese character, never before closing punctuation or after opening
punctuation. A word longer than the width is cut where it must be.
"""

from __future__ import annotations

import re
import unicodedata

from rich.cells import cell_len

#: Punctuation that never starts a line (it stays with the character before it).
_CLOSING = frozenset("。，、：；！？）」』》〉】”’…·,.:;!?)]}%")
#: Punctuation that never ends a line (it goes with the character after it).
_OPENING = frozenset("（「『《〈【“‘([{")
_TOKENS = re.compile(r"\s+|\S")


def _wide(ch: str) -> bool:
    return unicodedata.east_asian_width(ch) in ("W", "F")


def _segments(text: str) -> list[tuple[str, bool]]:
    """The line cut into pieces that never break inside, each with whether it is whitespace
    that may be dropped at a break."""
    tokens = _TOKENS.findall(text)
    out: list[tuple[str, bool]] = []
    for i, tok in enumerate(tokens):
        if not out:
            out.append((tok, tok.isspace()))
            continue
        prev, prev_space = out[-1]
        if tok.isspace():
            before = prev[-1]
            after = tokens[i + 1][0] if i + 1 < len(tokens) else "a"
            if _wide(before) or _wide(after):  # a space beside Chinese: part of the sentence
                out[-1] = (prev + tok, False)
            else:
                out.append((tok, True))
            continue
        if prev_space:
            out.append((tok, False))
            continue
        last = prev[-1]
        breakable = (_wide(last) and _wide(tok) and tok not in _CLOSING
                     and last not in _OPENING)
        if breakable:
            out.append((tok, False))
        else:
            out[-1] = (prev + tok, False)
    return out


def wrap_cells(text: str, width: int) -> list[str]:
    """``text`` as lines of at most ``width`` cells (see the module docstring); at least one
    line, empty for an empty text."""
    if width <= 0 or cell_len(text) <= width:
        return [text]
    lines: list[str] = []
    line = ""
    for seg, space in _segments(text):
        if cell_len(line + seg) <= width:
            line += seg
            continue
        if space:  # the break drops the space
            lines.append(line.rstrip())
            line = ""
            continue
        if line.strip():
            lines.append(line.rstrip())
            line = ""
        while cell_len(seg) > width:  # longer than a line: cut
            cut = ""
            for ch in seg:
                if cell_len(cut + ch) > width:
                    break
                cut += ch
            lines.append(cut)
            seg = seg[len(cut):]
        line = seg
    if line.strip() or not lines:
        lines.append(line.rstrip())
    return lines
