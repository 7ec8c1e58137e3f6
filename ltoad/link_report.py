"""The link report's content, gathered from one link: the program's call graph, what was
differentiated (requests, active functions with their statistics), phase times, diagnostics.
ltoad/report.py renders it as HTML or JSON."""

from __future__ import annotations

from . import callgraph, demangle
from .diagnostics import WARNINGS
from .report import FunctionInfo, LinkReport


def gather(output: str, graph, plan, phases: dict[str, float],
           error: BaseException | None = None) -> LinkReport:
    """`graph`: callgraph.build's DiGraph (None if the link failed first); `plan`: the AD
    plan (None without requests)."""
    diagnostics = list(WARNINGS) + ([f"ltoad: error: {error}"] if error else [])
    if graph is None:
        return LinkReport(output, [], [], dict(phases), diagnostics, _request_lines(plan))
    nodes = [n for n in graph.nodes if not n.startswith("llvm.")]
    shown = demangle.demangle(nodes)
    for node in callgraph.recursive(graph) & set(nodes):
        shown[node] += " (recursive)"
    kinds = _kinds(graph, nodes, plan)
    stats = plan.stats if plan else {}
    functions = [FunctionInfo(n, shown[n], kinds[n],
                              stats[n].active_instructions if n in stats else None,
                              stats[n].tape_bytes if n in stats else None)
                 for n in nodes]
    edges = [(a, b, data["kind"]) for a, b, data in graph.edges(data=True)
             if a in kinds and b in kinds]
    edges += [(r.symbol, r.target, "direct") for r in (plan.requests if plan else ())
              if r.symbol in kinds and r.target in kinds]
    return LinkReport(output, functions, edges, dict(phases), diagnostics, _request_lines(plan))


def _kinds(graph, nodes: list[str], plan) -> dict[str, str]:
    requests = {r.symbol for r in plan.requests} if plan else set()
    custom = set(plan.annotations.custom) if plan else set()
    active = set(plan.stats) if plan else set()
    kinds = {}
    for node in nodes:
        if node in requests or _is_config_forwarder(graph, node, requests):
            kinds[node] = "request"
        elif node in custom:
            kinds[node] = "custom"
        elif node in active:
            kinds[node] = "active"
        else:
            kinds[node] = "inactive" if graph.nodes[node]["defined"] else "external"
    return kinds


def _is_config_forwarder(graph, node: str, requests: set[str]) -> bool:
    """A function ltoad.yaml made: all it calls is its request."""
    callees = set(graph.successors(node))
    return bool(callees) and callees <= requests


def _request_lines(plan) -> list[str]:
    if plan is None:
        return []
    return [f"{r.origin}: {r.mode} derivative of '{r.target}' ({', '.join(r.activities)})"
            for r in plan.requests]
