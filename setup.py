"""Optional mypyc compilation of the engine (``UNOARENA_MYPYC=1``); metadata is in pyproject."""

import os

from setuptools import setup

ext_modules = []
if os.environ.get("UNOARENA_MYPYC") == "1":
    try:
        from mypyc.build import mypycify
    except ImportError:  # the requirements phase runs before the backend installs mypy
        mypycify = None
    if mypycify is not None:
        ext_modules = mypycify(
            # only the compiled modules are checked: the rest of the package, and the extras
            # it imports, need not be in the build environment
            ["--follow-imports=silent", "--ignore-missing-imports"]
            # not events, view_types or record: compiled, a TypedDict loses the NotRequired
            # marks that tests read at run time
            + [f"src/unoarena/engine/{m}.py"
             for m in ("cards", "errors", "rules", "actions", "state", "moves", "scoring",
                       "draws", "editions", "seven_zero", "wild_powers", "attack", "play",
                       "deal", "calls", "diagnose", "views", "game", "turns")]
            # the learning environments' per-step code (observation, mask, turn order)
            + ["src/unoarena/encoding.py", "src/unoarena/rl/table.py"],
            opt_level="3",
        )

setup(ext_modules=ext_modules)
