"""The AD steps of the link pipeline: requests before the pre-AD optimizer, derivatives after.

Both steps go through the text of the whole module (ltoad's IR model prints back what it did
not touch verbatim) and give the pipeline a new llvmlite module in the same context. Working on
the whole module, rather than linking a separate one, lets generated code refer to internal
symbols and reuse the module's attribute groups and metadata.
"""

from __future__ import annotations

from dataclasses import dataclass

import llvmlite.binding as llvm

from .. import ir, link
from . import knowledge, special_functions, tape
from ..configfile import EMPTY, Config
from .annotations import Annotations, read_annotations
from .config_requests import ProgramSymbols, config_annotations, config_requests
from .differentiator import Differentiator, NeedShadowGlobals
from .requests import Request, rewrite_requests


@dataclass
class Plan:
    requests: list[Request]
    annotations: Annotations


def prepare(session: link.Session, module: llvm.ModuleRef, config: Config = EMPTY,
            exported: bool = False) -> tuple[llvm.ModuleRef, Plan]:
    """Rewrite Enzyme API calls into request calls that survive optimization, define the
    derivatives ltoad.yaml asks for, and keep the functions with inactive or custom derivatives
    from being inlined away."""
    model = ir.parse_module(str(module))
    requests = rewrite_requests(model)
    symbols = ProgramSymbols(model)
    requests += config_requests(config, symbols, len(requests), exported)
    plan = Plan(requests, read_annotations(model).merged(config_annotations(config, symbols)))
    result = session.parse_text("ltoad: requests", str(model))
    for name in plan.annotations.inactive | set(plan.annotations.custom):
        function = next((f for f in result.functions if f.name == name), None)
        if function is not None and not function.is_declaration:
            function.add_function_attribute("noinline")
    return result, plan


def differentiate(session: link.Session, module: llvm.ModuleRef, plan: Plan) -> llvm.ModuleRef:
    """Define every request's function and the derivatives it needs. When active values turn
    out to live in global variables, start again with shadows for those globals."""
    text = str(module)
    shadowed_globals: set[str] = set()
    while True:
        try:
            model = _differentiate_text(text, plan, shadowed_globals)
            break
        except NeedShadowGlobals as more:
            shadowed_globals |= more.names
    result = session.parse_text("ltoad: derivatives", str(model))
    link.verify(result, "ltoad: generated derivatives")
    return result


def _differentiate_text(text: str, plan: Plan, shadowed_globals: set[str]) -> ir.Module:
    model = ir.parse_module(text)
    known = knowledge.default().with_inactive(plan.annotations.inactive)
    ad = Differentiator(model, known, plan.annotations.custom, shadowed_globals)
    requests = [r for r in plan.requests if r.symbol in model.declarations]  # others: dead code
    wrappers = [ad.request(r) for r in requests]
    ad.generate_all()
    for request, wrapper in zip(requests, wrappers):
        model.replace_declaration(request.symbol, wrapper)
    if tape.LAST_TAPE_BYTES in model.globals:
        model.remove_global(tape.LAST_TAPE_BYTES)   # the program's extern declaration
    special, needed = special_functions.definitions_for(ad.declarations)
    declarations = {**ad.declarations, **needed}
    present = set(model.functions) | set(model.declarations) | set(model.globals) \
        | set(special_functions.DEFINITIONS)
    missing = [text for name, text in declarations.items() if name not in present]
    model.append("\n".join([*ad.runtime, *ad.shadow_global_definitions(), *special, *missing]) + "\n")
    return model
