"""The AD steps of the link pipeline: requests before the pre-AD optimizer, derivatives after.

Both steps go through the text of the whole module (ltoad's IR model prints back what it did
not touch verbatim) and give the pipeline a new llvmlite module in the same context. Working on
the whole module, rather than linking a separate one, lets generated code refer to internal
symbols and reuse the module's attribute groups and metadata.
"""

from __future__ import annotations

import llvmlite.binding as llvm

from .. import ir, link
from . import knowledge, tape
from .differentiator import Differentiator
from .requests import ENTRY_POINTS, Request, rewrite_requests


def has_requests(module: llvm.ModuleRef) -> bool:
    return any(f.is_declaration and f.name.split(".")[0] in ENTRY_POINTS for f in module.functions)


def prepare(session: link.Session, module: llvm.ModuleRef) -> tuple[llvm.ModuleRef, list[Request]]:
    """Rewrite Enzyme API calls into request calls that survive optimization."""
    model = ir.parse_module(str(module))
    requests = rewrite_requests(model)
    return session.parse_text("ltoad: requests", str(model)), requests


def differentiate(session: link.Session, module: llvm.ModuleRef,
                  requests: list[Request]) -> llvm.ModuleRef:
    """Define every request's function and the derivatives it needs."""
    model = ir.parse_module(str(module))
    ad = Differentiator(model, knowledge.default())
    requests = [r for r in requests if r.symbol in model.declarations]  # others were dead code
    wrappers = [ad.request(r) for r in requests]
    ad.generate_all()
    for request, wrapper in zip(requests, wrappers):
        model.replace_declaration(request.symbol, wrapper)
    if tape.LAST_TAPE_BYTES in model.globals:
        model.remove_global(tape.LAST_TAPE_BYTES)   # the program's extern declaration
    present = set(model.functions) | set(model.declarations)
    missing = [text for name, text in ad.declarations.items() if name not in present]
    model.append("\n".join([*ad.runtime, *missing]) + "\n")
    result = session.parse_text("ltoad: derivatives", str(model))
    link.verify(result, "ltoad: generated derivatives")
    return result
