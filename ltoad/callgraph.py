"""The whole-program call graph of a merged module, as a networkx DiGraph.

Built from the module text without parsing function bodies: an edge per direct call or invoke
(`kind='direct'`), and from each call through a pointer to every address-taken function taking
as many arguments (`kind='indirect'`; a cheap stand-in for the same type). Nodes carry `defined` (has a body). Used for the link report and
to say how much of the program a request reaches.
"""

from __future__ import annotations

import re

import networkx as nx

from .ir import Module
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
    taken = _address_taken(module)
    by_arity = _targets_by_arity(module, taken)
    for caller in module.functions:
        for sigil, callee, line in _calls(module.function_text(caller)):
            if sigil == "@":
                if callee in graph:
                    graph.add_edge(caller, callee, kind="direct")
                continue
            for target in by_arity.get(_arity(line), ()):
                if not graph.has_edge(caller, target):
                    graph.add_edge(caller, target, kind="indirect")
    return graph


def _calls(text: str):
    for line in text.splitlines():
        match = _CALL.search(line)
        if match and " asm " not in line:
            yield match.group(1), match.group(2).strip('"'), line


def _address_taken(module: Module) -> set[str]:
    names = set(module.functions) | set(module.declarations)
    found = {m.strip('"') for text in module.globals.values() for m in _ADDRESS.findall(text)}
    for name in module.functions:
        body = module.function_text(name).split("\n", 1)[-1]
        found.update(m.strip('"') for m in _ADDRESS.findall(body))
    return found & names


def _arity(line: str) -> int:
    """The number of arguments of the call on `line` (top-level commas of its argument list)."""
    start = _CALL.search(line).end()
    depth, count, seen = 0, 0, False
    for char in line[start:]:
        if char in "([{<":
            depth += 1
        elif char in ")]}>":
            if depth == 0:
                break
            depth -= 1
        elif char == "," and depth == 0:
            count += 1
        elif not char.isspace():
            seen = True
    return count + 1 if seen else 0


def _targets_by_arity(module: Module, taken: set[str]) -> dict[int, list[str]]:
    """Address-taken functions by parameter count (what a call through a pointer may reach)."""
    found: dict[int, list[str]] = {}
    for name in sorted(taken):
        try:
            signature = module.signature(name)
        except IRParseError:
            continue
        if not signature.vararg:
            found.setdefault(len(signature.args), []).append(name)
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
