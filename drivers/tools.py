"""ltoad-llvm-ar, ltoad-llvm-ranlib, ltoad-llvm-nm: the LLVM 22 binutils under ltoad's prefix.

Build systems look for binutils next to the compiler by its prefix (CMake tries
`ltoad-llvm-ar` for `ltoad-clang`); without these names they would find the system's older
unversioned llvm-ar, which cannot read LLVM 22 bitcode.
"""

from __future__ import annotations

import os
import sys

from ltoad import toolchain
from ltoad.diagnostics import LtoadError, report_error


def _exec(tool: str) -> int:
    try:
        path = toolchain.find(tool)
        os.execv(path, [path, *sys.argv[1:]])
    except LtoadError as e:
        return report_error(e)


def llvm_ar() -> int:
    return _exec("llvm-ar")


def llvm_ranlib() -> int:
    return _exec("llvm-ranlib")


def llvm_nm() -> int:
    return _exec("llvm-nm")
