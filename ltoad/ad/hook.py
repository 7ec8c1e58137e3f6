"""The AD steps of the link pipeline: requests before the pre-AD optimizer, derivatives after.

Both steps go through the text of the whole module (ltoad's IR model prints back what it did
not touch verbatim) and give the pipeline a new llvmlite module in the same context. Working on
the whole module, rather than linking a separate one, lets generated code refer to internal
symbols and reuse the module's attribute groups and metadata.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import llvmlite.binding as llvm

from .. import ir, link
from ..configfile import EMPTY, Config
from ..diagnostics import log
from . import knowledge, special_functions, tape
from .annotations import Annotations, read_annotations
from .config_requests import ProgramSymbols, config_annotations, config_requests
from .differentiator import Differentiator, NeedBodies, NeedShadowGlobals
from .requests import Request, rewrite_requests


@dataclass
class Plan:
    requests: list[Request]
    annotations: Annotations
    want_graph: bool = False                 # build the program's call graph (for a report)
    graph: object = None                     # networkx.DiGraph of the program before AD
    stats: dict = field(default_factory=dict)  # function -> differentiator.FunctionStats
    bodies: object = None                    # embedded.EmbeddedBodies of the link's rlibs


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
    functions = {f.name: f for f in result.functions if not f.is_declaration}
    for name in plan.annotations.inactive | set(plan.annotations.custom):
        if name in functions:
            functions[name].add_function_attribute("noinline")
    for custom in plan.annotations.custom.values():
        for name in (custom.augmented, custom.reverse):   # referenced only by what AD makes
            if name in functions and functions[name].linkage == llvm.Linkage.internal:
                functions[name].linkage = llvm.Linkage.external
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
        except NeedBodies as more:
            _link_bodies(session, module, plan.bodies, more.names)
            text = str(module)
    result = session.parse_text("ltoad: derivatives", str(model))
    link.verify(result, "ltoad: generated derivatives")
    return result


def _link_bodies(session: link.Session, module: llvm.ModuleRef, bodies, names: set[str]) -> None:
    """Link the embedded-bitcode bodies of `names` into the program, all internal: the
    functions they pull in become internal before linking (renamed if the program has the same
    name), `names` themselves after (they replace the program's declarations)."""
    for where, data in bodies.bitcode_for(names):
        extracted = session.load(where, data).module
        for function in extracted.functions:
            if not function.is_declaration and function.name not in names:
                function.linkage = llvm.Linkage.internal
        for variable in extracted.global_variables:
            if not variable.is_declaration:
                variable.linkage = llvm.Linkage.internal
        module.link_in(extracted)
    for function in module.functions:
        if function.name in names and not function.is_declaration:
            function.linkage = llvm.Linkage.internal


def _differentiate_text(text: str, plan: Plan, shadowed_globals: set[str]) -> ir.Module:
    model = ir.parse_module(text)
    program = list(model.functions)
    if plan.want_graph and plan.graph is None:
        from .. import callgraph   # networkx only for links that report
        plan.graph = callgraph.build(model)
    known = knowledge.default().with_inactive(plan.annotations.inactive)
    native_body = plan.bodies.available if plan.bodies is not None else (lambda name: False)
    ad = Differentiator(model, known, plan.annotations.custom, shadowed_globals, native_body)
    requests = [r for r in plan.requests if r.symbol in model.declarations]  # others: dead code
    for request in requests:
        model.replace_declaration(request.symbol, ad.request(request))
    if tape.LAST_TAPE_BYTES in model.globals:
        model.remove_global(tape.LAST_TAPE_BYTES)   # the program's extern declaration
    # Requests and the tape runtime are ordinary functions before derivatives are made: a
    # gradient can itself be differentiated (forward over reverse).
    model.append("\n".join(ad.runtime) + "\n")
    ad.defined |= {r.symbol for r in requests} | set(tape.RUNTIME_FUNCTIONS)
    ad.generate_all()
    plan.stats = ad.stats
    parsed = sum(model.is_parsed(name) for name in program)
    log(f"ltoad-ld: AD parsed {parsed} of {len(program)} functions")
    special, needed = special_functions.definitions_for(ad.declarations)
    declarations = {**ad.declarations, **needed}
    present = set(model.functions) | set(model.declarations) | set(model.globals) \
        | set(special_functions.DEFINITIONS)
    missing = [text for name, text in declarations.items() if name not in present]
    model.append("\n".join([*ad.shadow_global_definitions(), *special, *missing]) + "\n")
    return model
