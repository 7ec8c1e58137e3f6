"""Locating the pinned LLVM 22 tools (clang-22, clang++-22, ld.lld-22, llvm-ar-22).

Environment overrides: LTOAD_CLANG, LTOAD_CLANGXX, LTOAD_LLD. Imports nothing heavy: the
compiler driver calls this on every compilation unit.
"""

from __future__ import annotations

import os
import shutil

from .diagnostics import LtoadError

TOOLS = {
    "clang": ("LTOAD_CLANG", "clang-22"),
    "clang++": ("LTOAD_CLANGXX", "clang++-22"),
    "ld.lld": ("LTOAD_LLD", "ld.lld-22"),
    "llvm-ar": ("LTOAD_AR", "llvm-ar-22"),
    "llvm-ranlib": ("LTOAD_RANLIB", "llvm-ranlib-22"),
    "llvm-nm": ("LTOAD_NM", "llvm-nm-22"),
    "llvm-cxxfilt": ("LTOAD_CXXFILT", "llvm-cxxfilt-22"),
    "llvm-extract": ("LTOAD_EXTRACT", "llvm-extract-22"),
}


def find(tool: str) -> str:
    """Absolute path of a pinned tool, or an LtoadError saying how to install it."""
    variable, default = TOOLS[tool]
    wanted = os.environ.get(variable) or default
    path = shutil.which(wanted)
    if path is None:
        raise LtoadError(f"'{wanted}' not found on PATH; ltoad needs LLVM 22: "
                         "apt-get install clang-22 lld-22 llvm-22 (scripts/setup does this)")
    return path
