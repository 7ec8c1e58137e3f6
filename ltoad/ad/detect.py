"""Whether a merged module asks for derivatives at all (cheap: no IR model, no rule table)."""

from __future__ import annotations

import llvmlite.binding as llvm

# Enzyme API entry points and the derivative mode each asks for.
ENTRY_POINTS = {"__enzyme_autodiff": "reverse", "__enzyme_fwddiff": "forward",
                "__enzyme_augmentfwd": "augment", "__enzyme_reverse": "split-reverse"}


def entry_mode(name: str | None) -> str | None:
    """The mode an Enzyme entry point asks for (`__enzyme_autodiff` or a `.suffix` spelling)."""
    return ENTRY_POINTS.get(name.split(".")[0]) if name else None


def has_requests(module: llvm.ModuleRef, config_names=(), exported: bool = False) -> bool:
    """True when the program calls the Enzyme API (a declaration of one of its entry points),
    has a function named like a derivative of ltoad.yaml (`config_names`), or is a shared library and
    ltoad.yaml asks for derivatives."""
    names = set(config_names)
    if names and exported:
        return True
    return any((f.is_declaration and entry_mode(f.name)) or f.name in names
               for f in module.functions)
