"""Whether a merged module asks for derivatives at all (cheap: no IR model, no rule table)."""

from __future__ import annotations

import llvmlite.binding as llvm

# Enzyme API entry points and the derivative mode each asks for.
ENTRY_POINTS = {"__enzyme_autodiff": "reverse"}


def entry_mode(name: str | None) -> str | None:
    """The mode an Enzyme entry point asks for (`__enzyme_autodiff` or a `.suffix` spelling)."""
    return ENTRY_POINTS.get(name.split(".")[0]) if name else None


def has_requests(module: llvm.ModuleRef) -> bool:
    """True when the program calls the Enzyme API (a declaration of one of its entry points)."""
    return any(f.is_declaration and entry_mode(f.name) for f in module.functions)
