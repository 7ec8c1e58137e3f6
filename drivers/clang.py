"""ltoad-clang / ltoad-clang++: clang-22 with LTO bitcode objects and ltoad-ld as the linker.

Runs once per compilation unit, so it imports nothing heavy and replaces itself with clang.
"""

from __future__ import annotations

import os
import shutil
import sys

from ltoad import toolchain
from ltoad.diagnostics import LtoadError, log, report_error

from . import flags, response


def main_c() -> int:
    return _main("clang", "ltoad-clang")


def main_cxx() -> int:
    return _main("clang++", "ltoad-clang++")


def _main(tool: str, name: str) -> int:
    try:
        clang = toolchain.find(tool)
        argv = sys.argv[1:]
        decision = flags.decide(response.expand(argv), ld_path=_ltoad_ld())
        log(f"{name}: {decision.action}: {decision.reason}"
            + (f"; adding {' '.join(decision.added)}" if decision.added else ""))
        os.execv(clang, [clang, *flags.apply(argv, decision)])
    except LtoadError as e:
        return report_error(e)
    except OSError as e:
        return report_error(LtoadError(f"cannot run clang: {e.strerror}"))


def _ltoad_ld() -> str:
    """ltoad-ld beside this script (following symlinks), else on PATH; LTOAD_LD overrides."""
    if os.environ.get("LTOAD_LD"):
        return os.environ["LTOAD_LD"]
    here = os.path.dirname(os.path.realpath(sys.argv[0]))
    beside = os.path.join(here, "ltoad-ld")
    if os.access(beside, os.X_OK):
        return beside
    found = shutil.which("ltoad-ld")
    if found is None:
        raise LtoadError("ltoad-ld not found next to ltoad-clang nor on PATH; reinstall ltoad")
    return found
