"""Build steps beside the metadata in pyproject: the compiled batch kernel (Cython, built when a
C compiler is present) and the optional mypyc compilation of the engine (``UNOARENA_MYPYC=1``).

The kernel is one extension, ``unoarena.kernel._kernel``, built from ``_kernel.pyx`` (which
includes the ``.pxi`` parts) or, in an sdist, from the C file Cython generated. Without a C
compiler the install still succeeds: the extension is left out with a warning, and
``unoarena.kernel.unavailable_reason()`` says how to get it.
"""

import os
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent
KERNEL = Path("src", "unoarena", "kernel")
#: -ffp-contract=off: the heuristic's floating-point sums must round as Python's do (a fused
#: multiply-add rounds once where Python rounds twice)
CFLAGS = ["-O3", "-ffp-contract=off", "-fno-strict-aliasing"]


def _kernel_extension() -> Extension | None:
    pyx = KERNEL / "_kernel.pyx"
    c = KERNEL / "_kernel.c"
    sources: list[str]
    if (HERE / pyx).is_file():
        try:
            from Cython.Build import cythonize
        except ImportError:
            cythonize = None
        if cythonize is not None:
            ext = Extension("unoarena.kernel._kernel", [str(pyx)],
                            extra_compile_args=[] if os.name == "nt" else CFLAGS)
            return cythonize([ext], quiet=True, language_level=3)[0]  # type: ignore[no-any-return]
    if (HERE / c).is_file():
        sources = [str(c)]
        return Extension("unoarena.kernel._kernel", sources,
                         extra_compile_args=[] if os.name == "nt" else CFLAGS)
    return None


class OptionalBuildExt(build_ext):
    """Build the kernel if a C compiler works; otherwise warn and install without it."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:  # noqa: BLE001 - no compiler at all
            self._skip(exc)

    def build_extension(self, ext: Extension) -> None:
        try:
            super().build_extension(ext)
        except Exception as exc:  # noqa: BLE001 - the compiler failed
            if not ext.name.startswith("unoarena.kernel"):
                raise
            self._skip(exc)

    @staticmethod
    def _skip(exc: BaseException) -> None:
        print(f"warning: the compiled kernel was not built ({exc}); unoarena installs without "
              "it and plays with the reference engine. Install a C compiler (gcc or clang) "
              "and reinstall to get it.", file=sys.stderr)


ext_modules = []
kernel = _kernel_extension()
if kernel is not None and os.environ.get("UNOARENA_NO_KERNEL") != "1":
    ext_modules.append(kernel)

if os.environ.get("UNOARENA_MYPYC") == "1":
    try:
        from mypyc.build import mypycify
    except ImportError:  # the requirements phase runs before the backend installs mypy
        mypycify = None
    if mypycify is not None:
        ext_modules += mypycify(
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

setup(ext_modules=ext_modules, cmdclass={"build_ext": OptionalBuildExt})
