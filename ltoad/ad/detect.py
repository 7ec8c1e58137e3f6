"""Whether a merged module asks for derivatives at all (cheap: no IR model, no rule table)."""

from __future__ import annotations

import llvmlite.binding as llvm

# Enzyme API entry points and the derivative mode each asks for.
ENTRY_POINTS = {"__enzyme_autodiff": "reverse"}


def has_requests(module: llvm.ModuleRef) -> bool:
    """True when the program calls the Enzyme API (a declaration of one of its entry points)."""
    return any(f.is_declaration and f.name.split(".")[0] in ENTRY_POINTS for f in module.functions)
