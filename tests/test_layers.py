"""The package's layers point one way: each part imports only from its own layer or those below
(docs/architecture.md draws the same picture). Read from the source, so an import
that runs up a layer fails here before it makes the next change harder."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "unoarena"

#: Lowest first. A part is a top-level module or subpackage of ``unoarena``.
LAYERS: tuple[frozenset[str], ...] = (
    frozenset({"engine"}),  # the rules, standard library only
    # seeds, words, tables, tensors, record files a person names, where a person's files are
    frozenset({"seeding", "text", "scenarios", "encoding", "recordfile",
               "datadir"}),
    frozenset({"bots"}),
    frozenset({"driver", "kernel", "table_loop", "play_choice"}),  # playing rounds: one at a
    # time, or in batches; who acts next at a table; a clicked card made an action
    frozenset({"lab", "rl", "coach"}),  # studies, learning environments, lessons and reviews
    frozenset({"train", "tui", "web", "mcp", "remote"}),  # training, the two ways to play,
    # the tools an AI agent plays with, and bots that play from elsewhere
    frozenset({"cli", "testing", "sim", "__init__"}),  # entry points and test support
)
#: Imports that still run up a layer, each with why; the list only shrinks.
KNOWN: dict[tuple[str, str], str] = {}


def layer_of(part: str) -> int:
    for i, parts in enumerate(LAYERS):
        if part in parts:
            return i
    raise AssertionError(f"unoarena.{part} is in no layer of tests/test_layers.py: add it")


def imported_parts(path: Path) -> set[str]:
    """The parts of ``unoarena`` one source file imports (at any depth of the file)."""
    rel = path.relative_to(PACKAGE).parts
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = list(rel[:-1])[:len(rel) - node.level]
                target = base + (node.module.split(".") if node.module else [])
                names = target[:1] or [a.name for a in node.names]
            elif node.module and node.module.split(".")[0] == "unoarena":
                names = node.module.split(".")[1:2]
            else:
                continue
            out |= {n.removesuffix(".py") for n in names if n != "__version__"}
        elif isinstance(node, ast.Import):
            out |= {a.name.split(".")[1] for a in node.names
                    if a.name.startswith("unoarena.")}
    return out


def test_every_part_is_in_a_layer() -> None:
    parts = {p.name.removesuffix(".py") for p in PACKAGE.iterdir()
             if (p.suffix == ".py" or (p / "__init__.py").exists())}
    for part in parts:
        layer_of(part)


def test_no_import_runs_up_a_layer() -> None:
    up: list[str] = []
    seen: set[tuple[str, str]] = set()
    for path in sorted(PACKAGE.rglob("*.py")):
        part = path.relative_to(PACKAGE).parts[0].removesuffix(".py")
        for other in imported_parts(path) - {part}:
            if layer_of(other) > layer_of(part):
                seen.add((part, other))
                if (part, other) not in KNOWN:
                    up.append(f"{path.relative_to(PACKAGE)} imports unoarena.{other}")
    assert not up, "imports that run up a layer:\n" + "\n".join(up)
    assert not set(KNOWN) - seen, f"no longer needed in KNOWN: {sorted(set(KNOWN) - seen)}"


def test_the_engine_needs_only_the_standard_library() -> None:
    import sys

    for path in sorted((PACKAGE / "engine").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                mods = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
                mods = [node.module]
            else:
                continue
            for mod in mods:
                top = mod.split(".")[0]
                assert top in sys.stdlib_module_names, f"{path.name} imports {mod}"
