"""The whole-program call graph of a merged module, as a networkx DiGraph.

Built from the module text without parsing function bodies: an edge per direct call or invoke
(`kind='direct'`), and from each call through a pointer to every address-taken function of the
call's type (`kind='indirect'`; only functions making such calls are parsed). Nodes carry `defined` (has a body). Used for the link report and
to say how much of the program a request reaches.
"""

from __future__ import annotations

import re

import networkx as nx

from .ir import Module
from .ir.instructions import CallBase
from .ir.lexer import IRParseError

_NAME = r'("[^"]*"|[-\w$.]+)'
# The callee of a call/invoke: the first `@name(` or `%name(` after the keyword on its line.
_CALL = re.compile(rf"\b(?:call|invoke)\b[^\n]*?([@%]){_NAME}\(")
_ADDRESS = re.compile(rf"@{_NAME}(?!\()")


def build(module: Module) -> nx.DiGraph:
    graph = nx.DiGraph()
    for name in module.declarations:
        graph.add_node(name, defined=False)
    for name in module.functions:
        graph.add_node(name, defined=True)
    by_type: dict | None = None
    for caller in module.functions:
        indirect = False
        for sigil, callee in _calls(module.function_text(caller)):
            if sigil == "%":
                indirect = True
            elif callee in graph:
                graph.add_edge(caller, callee, kind="direct")
        if indirect:
            by_type = by_type if by_type is not None else _targets_by_type(module)
            _add_indirect_edges(graph, module, caller, by_type)
    return graph


def _add_indirect_edges(graph: nx.DiGraph, module: Module, caller: str, by_type: dict) -> None:
    """Edges from each call through a pointer in `caller` (parsed: the call's exact type)."""
    for inst in module.parse_function(caller).instructions():
        if isinstance(inst, CallBase) and inst.called_name is None:
            for target in by_type.get(inst.function_type, ()):
                if not graph.has_edge(caller, target):
                    graph.add_edge(caller, target, kind="indirect")


def _calls(text: str):
    for line in text.splitlines():
        match = _CALL.search(line)
        if match and " asm " not in line:
            yield match.group(1), match.group(2).strip('"')


def _address_taken(module: Module) -> set[str]:
    names = set(module.functions) | set(module.declarations)
    found = {m.strip('"') for text in module.globals.values() for m in _ADDRESS.findall(text)}
    for name in module.functions:
        body = module.function_text(name).split("\n", 1)[-1]
        found.update(m.strip('"') for m in _ADDRESS.findall(body))
    return found & names


def _targets_by_type(module: Module) -> dict:
    """Address-taken functions by function type (what a call through a pointer may reach)."""
    found: dict = {}
    for name in sorted(_address_taken(module)):
        try:
            signature = module.signature(name)
        except IRParseError:
            continue
        found.setdefault(signature.function_type, []).append(name)
    return found


def reachable(graph: nx.DiGraph, roots) -> set[str]:
    """The functions the roots may call, directly or not (the roots included)."""
    found = set()
    for root in roots:
        if root in graph:
            found |= nx.descendants(graph, root) | {root}
    return found


def recursive(graph: nx.DiGraph) -> set[str]:
    """Functions on a call cycle (an SCC of several functions, or one that calls itself)."""
    found = set()
    for component in nx.strongly_connected_components(graph):
        if len(component) > 1 or any(graph.has_edge(n, n) for n in component):
            found |= component
    return found
