"""A plain ``pip install unoarena`` (no extras) runs: the command line and the terminal game
import nothing from an extra, and the server says which extra it needs.

Each check runs in a fresh interpreter in which every optional package is made unimportable,
as if it were not installed."""

from __future__ import annotations

import subprocess
import sys

import pytest

#: the packages of every extra (and what they bring in) that the core must not need
OPTIONAL = ("numpy", "matplotlib", "ray", "gymnasium", "pettingzoo", "starlette",
            "uvicorn", "sqlalchemy", "alembic", "orjson", "websockets", "psycopg", "httpx",
            "playwright", "hypothesis")


def run_without_extras(code: str) -> subprocess.CompletedProcess[str]:
    blocker = f"import sys\nfor m in {OPTIONAL!r}:\n    sys.modules[m] = None\n"
    return subprocess.run([sys.executable, "-c", blocker + code], capture_output=True,
                          text=True, timeout=120)


@pytest.mark.parametrize("argv", [
    ["rules", "house", "--set", "jump_in=on"],
    ["simulate", "--games", "20", "--players", "3", "--seed", "1"],
    ["tournament", "--bots", "basic,random", "--players", "2", "--games", "5", "--seed", "1"],
])
def test_the_command_line_runs_without_any_extra(argv: list[str]) -> None:
    done = run_without_extras(f"from unoarena.cli import main\nsys.exit(main({argv!r}))")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip()


def test_the_terminal_game_imports_without_any_extra() -> None:
    done = run_without_extras("import unoarena.tui.app\nimport unoarena.tui.plain\n")
    assert done.returncode == 0, done.stderr


def test_serve_without_the_web_extra_names_it() -> None:
    done = run_without_extras("from unoarena.cli import main\nsys.exit(main(['serve']))")
    assert done.returncode == 2
    assert "pip install 'unoarena[web]'" in done.stderr


def test_without_the_compiled_kernel_the_lab_says_how_to_get_it() -> None:
    """An install without a C compiler has no kernel: the pure engine serves, and asking for
    the kernel says in one line what is missing and how to get it."""
    code = ("sys.modules['unoarena.kernel._kernel'] = None\n"
            "from unoarena.kernel import available, unavailable_reason\n"
            "print(available(), unavailable_reason())\n"
            "from unoarena.cli import main\n"
            "code = main(['simulate', '--games', '5', '--players', '2', '--engine', 'kernel'])\n"
            "print('exit', code)\n"
            "print('auto', main(['simulate', '--games', '5', '--players', '2']))\n")
    done = subprocess.run([sys.executable, "-c", "import sys\n" + code], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    first = done.stdout.splitlines()[0]
    assert first.startswith("False the compiled kernel was not built")
    assert "install gcc or clang" in first
    assert "exit 2" in done.stdout
    assert "--engine kernel cannot play this: the compiled kernel was not built" in done.stderr
    assert "auto 0" in done.stdout
