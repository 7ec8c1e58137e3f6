"""The AD step of the link pipeline: finds differentiation requests and (later) answers them."""

from __future__ import annotations

import llvmlite.binding as llvm

from ..diagnostics import LtoadError

ENZYME_ENTRY_PREFIXES = ("__enzyme_autodiff", "__enzyme_fwddiff", "__enzyme_augmentfwd",
                         "__enzyme_reverse")


def requested_entry_points(module: llvm.ModuleRef) -> list[str]:
    """Names of the Enzyme API functions the program calls (declared, never defined)."""
    return sorted(f.name for f in module.functions
                  if f.is_declaration and f.name.startswith(ENZYME_ENTRY_PREFIXES))


def differentiate(module: llvm.ModuleRef, requests: list[str]) -> None:
    """Replace every request by a generated derivative. No engine is wired in yet."""
    if requests:
        raise LtoadError(f"cannot differentiate: calls to {', '.join(requests)} found, "
                         "but this ltoad build has no differentiation engine")
