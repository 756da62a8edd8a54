"""Reading scenario files: a folder's files in order, and each file's YAML documents, with
limits on their size and depth (a scenario file is input, not trusted code)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from .format import SUFFIXES, Scenario, ScenarioError, _short, parse_scenario


def scenario_files(path: str | Path) -> list[Path]:
    """The scenario files of a path: the file itself, or every ``*.yaml``/``*.yml`` under a
    folder, sorted, so that runs are reproducible. A missing path raises FileNotFoundError."""
    p = Path(path)
    if p.is_dir():
        return sorted(f for f in p.rglob("*") if f.is_file() and f.suffix in SUFFIXES)
    if p.is_file():
        return [p]
    raise FileNotFoundError(f"no such file or folder: {path}")


def load_scenarios(path: str | Path) -> list[Scenario]:
    """Every scenario of a file or folder. A document that breaks the format raises
    :class:`ScenarioError` (use :func:`run_paths` to report such documents instead)."""
    out: list[Scenario] = []
    for f in scenario_files(path):
        for index, doc in read_documents(f):
            out.append(parse_scenario(doc, str(f), index))
    return out


#: Limits on what a scenario file may be: its size, and how deeply its values nest.
MAX_FILE_BYTES = 4 * 1024 * 1024
MAX_DEPTH = 32


class BoundedLoader(yaml.SafeLoader):
    """YAML's safe loader without aliases (``*name``) and with a nesting limit.

    An alias repeats a value without copying it, so a few lines can stand for billions of
    values ("billion laughs"): anything that walks the result, an error message included,
    would run for ever. Scenario and save files have no use for them. Deep nesting would end
    in a RecursionError; it is refused at :data:`MAX_DEPTH` levels instead."""

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self._depth = 0

    def compose_node(self, parent: Any, index: Any) -> Any:
        """PyYAML's node builder (called once per node, nested for its children),
        refusing aliases and counting the depth."""
        if self.check_event(yaml.AliasEvent):
            event = self.peek_event()  # type: ignore[no-untyped-call]
            raise yaml.composer.ComposerError(None, None, "aliases (*name) are not allowed",
                                              event.start_mark)
        self._depth += 1
        try:
            if self._depth > MAX_DEPTH:
                raise yaml.composer.ComposerError(
                    None, None, f"values nest more than {MAX_DEPTH} levels deep",
                    self.peek_event().start_mark)  # type: ignore[no-untyped-call]
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1


def load_yaml_documents(text: str) -> list[Any]:
    """Every document of a YAML text, read with :class:`BoundedLoader`."""
    return list(yaml.load_all(text, Loader=BoundedLoader))


def read_documents(f: Path) -> list[tuple[int, Any]]:
    """The non-empty YAML documents of a file, numbered from 1."""
    try:
        if f.stat().st_size > MAX_FILE_BYTES:
            raise ScenarioError(str(f), f"cannot read: larger than {MAX_FILE_BYTES} bytes")
        text = f.read_text(encoding="utf-8")
        docs = load_yaml_documents(text)
    except (OSError, ValueError, yaml.YAMLError, RecursionError) as e:
        raise ScenarioError(str(f), f"cannot read: {_short(' '.join(str(e).split()))}"
                            ) from None
    return [(i, d) for i, d in enumerate(docs, 1) if d is not None]
