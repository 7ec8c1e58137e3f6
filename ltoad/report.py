"""The link report: what one `ltoad-ld` run differentiated, and how long each phase took.

`-Wl,--ltoad-report=FILE.html` writes a self-contained page (inline CSS and SVG, no scripts, no
external URLs): the call graph as a layered picture coloured by what the differentiator made of
each function, a table of all functions with their active instructions and static tape bytes,
the phase times, the derivative requests and the diagnostics. `FILE.json` writes the same data
as JSON for tools.

The picture is laid out here, without graphviz: layer = shortest call distance from a request,
nodes within a layer ordered by the barycenter of their already placed neighbours, long layers
wrapped into several rows. Large programs are drawn in part (requests, active and custom
functions first, then their neighbours); the table always lists every function.
"""

from __future__ import annotations

import html
import json
import math
import os
import re
import tempfile
from dataclasses import asdict, dataclass, field

import networkx as nx

from .diagnostics import LtoadError

KIND_ORDER = ("request", "active", "custom", "inactive", "external")
LEGEND_ORDER = ("request", "active", "inactive", "custom", "external")
KIND_COLOURS = {  # kind -> (fill, stroke)
    "request": ("#f6b3ad", "#c0392b"),
    "active": ("#ffd68a", "#d68910"),
    "inactive": ("#e6e6e6", "#8c8c8c"),
    "custom": ("#bfe5b3", "#3d8b37"),
    "external": ("#cfe0f3", "#4a77a8"),
}
KIND_MEANINGS = {
    "request": "differentiated on request",
    "active": "carries derivatives",
    "inactive": "no derivative needed",
    "custom": "user-supplied derivative",
    "external": "no body in the link",
}

MAX_DRAWN = 150
LABEL_CHARS = 24
NODE_W, NODE_H = 176, 26
COL_W, ROW_H, LAYER_GAP = 192, 60, 22
MARGIN = 24
ROW_NODES = 6

Point = tuple[float, float]


@dataclass
class FunctionInfo:
    name: str                                # the symbol
    display: str                             # demangled name shown to people (may equal name)
    kind: str                                # one of KIND_ORDER
    active_instructions: int | None = None   # instructions the activity analysis marks active
    tape_bytes_per_call: int | None = None   # static tape bytes of one call (entry + block frames)
    location: str | None = None              # "file.c:12" when known


@dataclass
class LinkReport:
    output: str                              # the linked file
    functions: list[FunctionInfo]
    edges: list[tuple[str, str, str]]        # (caller, callee, 'direct' | 'indirect') symbols
    phases: dict[str, float]                 # phase name -> seconds, in order
    diagnostics: list[str]                   # lines as printed ('ltoad: warning: ...')
    requests: list[str] = field(default_factory=list)  # one line per derivative request


# ---------------------------------------------------------------------------------------------
# Output files


def to_json(report: LinkReport) -> str:
    return json.dumps(asdict(report), indent=2, ensure_ascii=False) + "\n"


def write(report: LinkReport, path: str) -> None:
    """Write JSON for a `.json` path and HTML otherwise, replacing the file atomically."""
    text = to_json(report) if path.lower().endswith(".json") else to_html(report)
    try:
        _replace_atomically(path, text)
    except OSError as error:
        raise LtoadError(f"cannot write report '{path}': {error.strerror or error}") from None


def _replace_atomically(path: str, text: str) -> None:
    directory = os.path.dirname(os.path.abspath(path))
    handle, temp = tempfile.mkstemp(dir=directory, prefix=".ltoad-report-", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
        os.replace(temp, path)
    except BaseException:
        os.unlink(temp)
        raise


# ---------------------------------------------------------------------------------------------
# Graph model and layout


def call_graph(report: LinkReport) -> nx.DiGraph:
    """Functions as nodes (kind, display) and calls between them as edges (kind).

    Calls naming a symbol that is not among the functions are left out; when a function calls
    another both directly and indirectly, the edge is direct."""
    graph = nx.DiGraph()
    for info in report.functions:
        graph.add_node(info.name, kind=info.kind, display=info.display or info.name)
    for caller, callee, how in report.edges:
        known = caller in graph and callee in graph
        if known and graph.edges.get((caller, callee), {}).get("kind") != "direct":
            graph.add_edge(caller, callee, kind=how)
    return graph


def _kind_rank(kind: str) -> int:
    return KIND_ORDER.index(kind) if kind in KIND_ORDER else len(KIND_ORDER)


def _natural(text: str) -> tuple:
    """Sort key that puts `f2` before `f10`."""
    parts = re.split(r"(\d+)", text)
    return tuple(int(part) if index % 2 else part for index, part in enumerate(parts))


def _node_key(graph: nx.DiGraph, node: str) -> tuple:
    return _kind_rank(graph.nodes[node]["kind"]), _natural(graph.nodes[node]["display"]), node


def drawn_nodes(graph: nx.DiGraph, limit: int = MAX_DRAWN) -> list[str]:
    """At most `limit` nodes: requests, active and custom first, then their neighbours, the rest."""
    core = {n for n in graph if graph.nodes[n]["kind"] in ("request", "active", "custom")}
    near = {m for n in core for m in nx.all_neighbors(graph, n)} - core

    def priority(node: str) -> tuple:
        tier = 0 if node in core else 1 if node in near else 2
        return (tier, *_node_key(graph, node))
    return sorted(graph, key=priority)[:limit]


def _distances(graph: nx.Graph, sources: list[str]) -> dict[str, int]:
    if not sources:
        return {}
    return dict(nx.multi_source_dijkstra_path_length(graph, sources))


def layer_numbers(graph: nx.DiGraph) -> dict[str, int]:
    """Call distance from a request; unreached nodes go below, by distance from reached ones."""
    requests = [n for n in graph if graph.nodes[n]["kind"] == "request"]
    layers = _distances(graph, requests)
    last = max(layers.values(), default=-1)
    around = _distances(graph.to_undirected(as_view=True), list(layers))
    for node, distance in around.items():
        layers.setdefault(node, last + distance)
    final = max(layers.values(), default=-1) + 1
    return {node: layers.get(node, final) for node in graph}


def _barycenter(graph: nx.DiGraph, node: str, placed: dict[str, float]) -> float:
    xs = [placed[m] for m in nx.all_neighbors(graph, node) if m in placed]
    return sum(xs) / len(xs) if xs else math.inf


def _column_offsets(count: int) -> list[float]:
    """Offset from the middle, in columns, of each node of a layer wrapped into centred rows."""
    offsets: list[float] = []
    for start in range(0, count, ROW_NODES):
        size = min(ROW_NODES, count - start)
        offsets += [i - (size - 1) / 2 for i in range(size)]
    return offsets


def ordered_layers(graph: nx.DiGraph) -> list[list[str]]:
    """Layers top to bottom; each ordered by barycenter of already placed neighbours, then name."""
    numbers = layer_numbers(graph)
    layers: list[list[str]] = [[] for _ in range(max(numbers.values(), default=-1) + 1)]
    for node, number in numbers.items():
        layers[number].append(node)
    placed: dict[str, float] = {}
    for layer in layers:
        layer.sort(key=lambda n: (_barycenter(graph, n, placed), *_node_key(graph, n)))
        placed.update(zip(layer, _column_offsets(len(layer))))
    return [layer for layer in layers if layer]


def _place_layer(layer: list[str], middle: float, top: float) -> dict[str, Point]:
    offsets = _column_offsets(len(layer))
    return {node: (middle + offset * COL_W, top + (index // ROW_NODES) * ROW_H)
            for index, (node, offset) in enumerate(zip(layer, offsets))}


def positions(layers: list[list[str]]) -> tuple[dict[str, Point], int, int]:
    """Centre of every node, and the picture's width and height; long layers wrap into rows."""
    width = 2 * MARGIN + min(ROW_NODES, max(map(len, layers), default=0)) * COL_W
    centres: dict[str, Point] = {}
    y = MARGIN + NODE_H / 2
    for layer in layers:
        centres.update(_place_layer(layer, width / 2, y))
        y += -(-len(layer) // ROW_NODES) * ROW_H + LAYER_GAP
    return centres, width, int(y - ROW_H - LAYER_GAP + NODE_H / 2 + MARGIN)


# ---------------------------------------------------------------------------------------------
# SVG picture


def _esc(text: object) -> str:
    return html.escape(str(text), quote=True)


def _drop_parameters(name: str) -> str:
    """`ns::f(int, double) const` -> `ns::f(…)`: the last parenthesized group and what follows."""
    close = name.rfind(")")
    depth = 0
    for index in range(close, -1, -1):
        depth += {")": 1, "(": -1}.get(name[index], 0)
        if depth == 0:
            return name[:index] + "(\u2026)"
    return name


def _collapse_templates(name: str) -> str:
    """`std::vector<double, alloc<double> >::at` -> `std::vector<…>::at`."""
    if "operator" in name:
        return name
    out, depth = [], 0
    for char in name:
        if char == ">" and depth:
            depth -= 1
        if depth == 0:
            out.append(char)
        if char == "<":
            depth += 1
            out.append("\u2026" if depth == 1 else "")
    return "".join(out) if depth == 0 else name


def short_label(text: str, limit: int = LABEL_CHARS) -> str:
    """Fit a name into a node: drop parameters, then template arguments, then cut with an ellipsis
    (qualified names keep their end, where the function's own name is)."""
    for shorten in (_drop_parameters, _collapse_templates):
        if len(text) > limit:
            text = shorten(text)
    if len(text) <= limit:
        return text
    if "::" in text:
        return "\u2026" + text[-(limit - 1):]
    return text[:limit - 1] + "\u2026"


def _curve(start: Point, pull: Point, push: Point, end: Point) -> str:
    """An SVG cubic Bézier path from start to end with two control points."""
    (a, b), (c, d), (e, f), (g, h) = start, pull, push, end
    return f"M{a:.0f},{b:.0f} C{c:.0f},{d:.0f} {e:.0f},{f:.0f} {g:.0f},{h:.0f}"


def _edge_path(start: Point, end: Point) -> str:
    """Down: bottom to top; same row: an arc above; up: off-centre, top to bottom; self: a loop."""
    (x1, y1), (x2, y2) = start, end
    half = NODE_H / 2
    if start == end:
        x = x1 + NODE_W / 2
        return _curve((x, y1 - 6), (x + 34, y1 - 24), (x + 34, y1 + 24), (x, y1 + 6))
    if y1 == y2:
        top = y1 - half
        return _curve((x1, top), (x1, top - 34), (x2, top - 34), (x2, top))
    sign = 1 if y2 > y1 else -1
    if sign < 0:
        x1, x2 = x1 + NODE_W * 0.3, x2 + NODE_W * 0.3
    ya, yb = y1 + sign * half, y2 - sign * half
    bend = sign * max(abs(yb - ya) / 2, 20)
    return _curve((x1, ya), (x1, ya + bend), (x2, yb - bend), (x2, yb))


def _edge_tooltip(graph: nx.DiGraph, caller: str, callee: str, how: str) -> str:
    names = graph.nodes[caller]["display"], graph.nodes[callee]["display"]
    return _esc(f"{names[0]} \u2192 {names[1]} ({how})")


def _svg_edges(graph: nx.DiGraph, centres: dict[str, Point]) -> list[str]:
    lines = []
    for caller, callee, how in sorted(graph.edges(data="kind")):
        if caller in centres and callee in centres:
            d = _edge_path(centres[caller], centres[callee])
            upward = " up" if centres[callee][1] < centres[caller][1] else ""
            lines.append(f'<path class="edge {_esc(how)}{upward}" d="{d}" '
                         f'marker-end="url(#arrow)"><title>'
                         f"{_edge_tooltip(graph, caller, callee, how)}</title></path>")
    return lines


def _svg_node(graph: nx.DiGraph, node: str, centre: Point) -> str:
    x, y = centre
    display, kind = graph.nodes[node]["display"], graph.nodes[node]["kind"]
    tip = display if display == node else f"{display}\n{node}"
    return (f'<g class="node kind-{_esc(kind)}"><title>{_esc(tip)} ({_esc(kind)})</title>'
            f'<rect x="{x - NODE_W / 2:.0f}" y="{y - NODE_H / 2:.0f}" width="{NODE_W}" '
            f'height="{NODE_H}" rx="5"/>'
            f'<text x="{x:.0f}" y="{y + 4:.0f}">{_esc(short_label(display))}</text></g>')


ARROW_MARKER = ('<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" '
                'markerWidth="7" markerHeight="7" orient="auto-start-reverse">'
                '<path d="M0,0 L10,5 L0,10 z" class="arrowhead"/></marker></defs>')


def _svg_open(width: int, height: int) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="callgraph" width="{width}" '
            f'height="{height}" viewBox="0 0 {width} {height}" role="img" '
            'aria-label="call graph">')


def call_graph_svg(graph: nx.DiGraph) -> str:
    """The drawn part of the call graph as one <svg> element."""
    layers = ordered_layers(graph)
    centres, width, height = positions(layers)
    nodes = [_svg_node(graph, n, centres[n]) for layer in layers for n in layer]
    return "\n".join([_svg_open(width, height), ARROW_MARKER, *_svg_edges(graph, centres),
                      *nodes, "</svg>"])


# ---------------------------------------------------------------------------------------------
# HTML page


def _kind_css() -> str:
    return "\n".join(
        f".kind-{kind} rect {{ fill: {fill}; stroke: {stroke}; }}\n"
        f".swatch.kind-{kind} {{ background: {fill}; border-color: {stroke}; }}"
        for kind, (fill, stroke) in KIND_COLOURS.items())


STYLE = """
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: #222;
       margin: 24px 32px; background: #fafafa; }
h1 { font-size: 22px; margin: 0 0 4px; word-break: break-all; }
h2 { font-size: 17px; margin: 28px 0 8px; border-bottom: 1px solid #ddd; padding-bottom: 3px; }
.summary { color: #555; margin: 0 0 8px; }
code, .mono { font-family: ui-monospace, "DejaVu Sans Mono", Menlo, monospace; font-size: 12px; }
.legend { display: flex; flex-wrap: wrap; gap: 6px 18px; margin: 6px 0 10px; padding: 0; }
.legend li { list-style: none; display: flex; align-items: center; gap: 6px; }
.legend .meaning { color: #666; }
.legend .edge-sample { display: inline-block; width: 28px; border-top: 2px solid #777; }
.legend .edge-sample.indirect { border-top-style: dashed; }
.swatch { display: inline-block; width: 14px; height: 12px; border: 1.5px solid;
          border-radius: 3px; }
.graph { overflow: auto; max-height: 1100px; background: #fff; border: 1px solid #ddd;
         border-radius: 6px; }
.caption { color: #555; font-size: 13px; margin: 6px 0 0; }
svg.callgraph text { font-family: ui-monospace, "DejaVu Sans Mono", Menlo, monospace;
                     font-size: 11px; text-anchor: middle; fill: #1a1a1a; }
svg.callgraph rect { stroke-width: 1.5; }
svg.callgraph .edge { fill: none; stroke: #7a7a7a; stroke-width: 1.2; stroke-opacity: 0.75; }
svg.callgraph .edge.up { stroke-opacity: 0.4; }
svg.callgraph .edge.indirect { stroke-dasharray: 5 4; stroke: #5b4a8a; }
svg.callgraph .arrowhead { fill: #7a7a7a; }
table { border-collapse: collapse; background: #fff; }
th, td { padding: 3px 12px 3px 8px; border-bottom: 1px solid #eee; text-align: left;
         vertical-align: middle; }
th { background: #f0f0f0; font-weight: 600; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
td.name { max-width: 640px; word-break: break-all; }
.bar { display: inline-block; height: 10px; background: #7fa7d6; border-radius: 2px;
       vertical-align: middle; }
tr.total td { font-weight: 600; border-top: 1px solid #ccc; }
ul.lines { padding-left: 20px; margin: 0; }
ul.lines li { margin: 2px 0; }
li.error { color: #b0261c; }
li.warning { color: #9a5b00; }
.none { color: #777; font-style: italic; }
"""


def _legend() -> str:
    items = [f'<li><span class="swatch kind-{kind}"></span><b>{kind}</b>'
             f'<span class="meaning">{KIND_MEANINGS[kind]}</span></li>' for kind in LEGEND_ORDER]
    items += ['<li><span class="edge-sample"></span>direct call</li>',
              '<li><span class="edge-sample indirect"></span>indirect call</li>']
    return '<ul class="legend">' + "".join(items) + "</ul>"


def _graph_caption(drawn: int, total: int) -> str:
    if drawn == total:
        return f"All {total} functions drawn. Hover a node for its full name."
    return (f"{drawn} of {total} functions drawn; {total - drawn} functions not drawn "
            "(all are listed in the table below).")


def _graph_section(report: LinkReport) -> str:
    graph = call_graph(report)
    if not graph:
        return '<p class="none">no functions</p>'
    drawn = drawn_nodes(graph)
    svg = call_graph_svg(graph.subgraph(drawn))
    return (_legend() + f'<div class="graph">{svg}</div>'
            f'<p class="caption">{_esc(_graph_caption(len(drawn), len(graph)))}</p>')


def _number(value: int | None) -> str:
    return "\u2013" if value is None else f"{value:,}"


def _function_row(info: FunctionInfo) -> str:
    symbol = "" if info.display == info.name else f' title="{_esc(info.name)}"'
    return (f'<tr><td class="name mono"{symbol}>{_esc(info.display or info.name)}</td>'
            f'<td><span class="swatch kind-{_esc(info.kind)}"></span> {_esc(info.kind)}</td>'
            f'<td class="num">{_number(info.active_instructions)}</td>'
            f'<td class="num">{_number(info.tape_bytes_per_call)}</td>'
            f'<td class="mono">{_esc(info.location or "")}</td></tr>')


def _functions_table(functions: list[FunctionInfo]) -> str:
    ordered = sorted(functions,
                     key=lambda f: (_kind_rank(f.kind), _natural(f.display or f.name), f.name))
    head = ('<tr><th>function</th><th>kind</th><th class="num">active instructions</th>'
            '<th class="num">tape bytes / call</th><th>location</th></tr>')
    return "<table>" + head + "".join(_function_row(f) for f in ordered) + "</table>"


def _phase_row(name: str, seconds: float, total: float) -> str:
    share = seconds / total if total > 0 else 0.0
    return (f'<tr><td>{_esc(name)}</td><td class="num">{seconds:.3f} s</td>'
            f'<td class="num">{share:.1%}</td>'
            f'<td><span class="bar" style="width: {share * 240:.0f}px"></span></td></tr>')


def _phases_table(phases: dict[str, float]) -> str:
    if not phases:
        return '<p class="none">none</p>'
    total = sum(phases.values())
    rows = [_phase_row(name, seconds, total) for name, seconds in phases.items()]
    rows.append(f'<tr class="total"><td>total</td><td class="num">{total:.3f} s</td>'
                '<td class="num">100%</td><td></td></tr>')
    return ('<table><tr><th>phase</th><th class="num">time</th><th class="num">share</th>'
            "<th></th></tr>" + "".join(rows) + "</table>")


def _severity(line: str) -> str:
    for severity in ("error", "warning"):
        if f"{severity}:" in line:
            return severity
    return "note"


def _line_list(lines: list[str], classify=None) -> str:
    if not lines:
        return '<p class="none">none</p>'
    items = "".join(f'<li class="{classify(line) if classify else "line"}">{_esc(line)}</li>'
                    for line in lines)
    return f'<ul class="lines mono">{items}</ul>'


def _summary(report: LinkReport) -> str:
    counts = {kind: sum(f.kind == kind for f in report.functions) for kind in KIND_ORDER}
    parts = [f"{len(report.functions)} functions"]
    parts += [f"{n} {kind}" for kind, n in counts.items() if n]
    parts.append(f"{len(report.edges)} calls")
    parts.append(f"{sum(report.phases.values()):.2f} s")
    return " \u00b7 ".join(parts)


def to_html(report: LinkReport) -> str:
    title = f"ltoad link report: {report.output}"
    return "\n".join([
        "<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{_esc(title)}</title>", f"<style>{STYLE}{_kind_css()}</style></head><body>",
        f"<h1>ltoad link report: <code>{_esc(report.output)}</code></h1>",
        f'<p class="summary">{_esc(_summary(report))}</p>',
        "<h2>Call graph</h2>", _graph_section(report),
        "<h2>Derivative requests</h2>", _line_list(report.requests),
        "<h2>Diagnostics</h2>", _line_list(report.diagnostics, _severity),
        "<h2>Functions</h2>", _functions_table(report.functions),
        "<h2>Phases</h2>", _phases_table(report.phases),
        "</body></html>", ""])
