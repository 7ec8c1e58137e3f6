"""The link report: HTML page (call graph picture, tables) and JSON."""

import json
import os
from html.parser import HTMLParser

import pytest

from ltoad import report
from ltoad.diagnostics import LtoadError
from ltoad.report import FunctionInfo, LinkReport

CPP_NAME = "std::vector<double>::at(unsigned long) const&"
VOID_ELEMENTS = {"meta", "br", "hr", "img", "input", "link", "wbr"}


class PageParser(HTMLParser):
    """Checks that tags nest and collects the SVG nodes, edges, texts and attributes."""

    def __init__(self):
        super().__init__()
        self.stack, self.problems, self.elements, self.titles = [], [], [], []

    def handle_starttag(self, tag, attrs):
        self.elements.append((tag, dict(attrs)))
        if tag not in VOID_ELEMENTS:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        self.elements.append((tag, dict(attrs)))

    def handle_endtag(self, tag):
        if not self.stack or self.stack[-1] != tag:
            self.problems.append(f"</{tag}> closes {self.stack[-1:]}")
        else:
            self.stack.pop()

    def handle_data(self, data):
        if self.stack and self.stack[-1] == "title":
            self.titles.append(data)

    def with_class(self, tag, name):
        return [a for t, a in self.elements if t == tag and name in a.get("class", "").split()]


def parse(page):
    parser = PageParser()
    parser.feed(page)
    parser.close()
    assert parser.problems == [] and parser.stack == []
    return parser


def sample():
    functions = [
        FunctionInfo("grad_f", "grad_f", "request", 12, 256, "main.c:3"),
        FunctionInfo("_Z1fPd", "f(double*)", "active", 40, 128, "f.c:1"),
        FunctionInfo("_ZNKSt6vectorIdE2atEm", CPP_NAME, "active", 5, 16, "vector.h:9"),
        FunctionInfo("g", "g", "custom", None, 8),
        FunctionInfo("log", "log", "inactive"),
        FunctionInfo("exp", "exp", "external"),
        FunctionInfo("main", "main", "inactive", location="main.c:20"),
    ]
    edges = [("grad_f", "_Z1fPd", "direct"), ("_Z1fPd", "_ZNKSt6vectorIdE2atEm", "direct"),
             ("_Z1fPd", "g", "indirect"), ("_Z1fPd", "log", "direct"), ("g", "exp", "direct"),
             ("main", "grad_f", "direct")]
    return LinkReport("build/app", functions, edges, {"merge": 0.25, "differentiate": 0.75},
                      ["ltoad: warning: call to 'log' treated as inactive"],
                      ["grad_f: reverse of f (dup)"])


def big(count):
    functions = [FunctionInfo("req", "req", "request", 1, 8)]
    functions += [FunctionInfo(f"a{i}", f"a{i}", "active", 3, 8) for i in range(20)]
    functions += [FunctionInfo(f"n{i}", f"n{i}", "inactive") for i in range(count - 21)]
    edges = [("req", f"a{i}", "direct") for i in range(20)]
    edges += [(f"a{i % 20}", f"n{i}", "direct") for i in range(0, count - 21, 7)]
    return LinkReport("big", functions, edges, {"link": 1.0}, [])


def test_page_parses_with_title_and_one_node_per_function():
    page = report.to_html(sample())
    parser = parse(page)
    assert "ltoad link report: build/app" in parser.titles
    nodes = parser.with_class("g", "node")
    assert len(nodes) == len(sample().functions)
    assert {a["class"] for a in nodes} >= {"node kind-request", "node kind-custom"}
    assert "http" not in page.replace('xmlns="http://www.w3.org/2000/svg"', "")
    assert "<script" not in page


def test_legend_names_every_kind_with_its_colour():
    page = report.to_html(sample())
    legend = page[page.index('<ul class="legend">'):]
    legend = legend[:legend.index("</ul>")]
    for kind in ("request", "active", "inactive", "custom", "external"):
        assert f'<span class="swatch kind-{kind}"></span><b>{kind}</b>' in legend
        assert f".kind-{kind} rect {{ fill: {report.KIND_COLOURS[kind][0]}" in page
    assert "indirect call" in legend


def test_cpp_names_are_escaped_and_kept_whole_in_tooltips():
    page = report.to_html(sample())
    assert "<double>" not in page
    assert "std::vector&lt;double&gt;::at(unsigned long) const&amp;" in page
    assert any(CPP_NAME in title for title in parse(page).titles)
    assert report.short_label(CPP_NAME) == "std::vector<\u2026>::at(\u2026)"
    assert report.short_label("x" * 40) == "x" * 23 + "\u2026"


def test_node_cap_draws_the_interesting_functions_and_says_how_many_are_missing():
    data = big(400)
    parser = parse(report.to_html(data))
    nodes = parser.with_class("g", "node")
    assert len(nodes) == report.MAX_DRAWN == 150
    assert sum(a["class"] != "node kind-inactive" for a in nodes) == 21
    page = report.to_html(data)
    assert "150 of 400 functions drawn; 250 functions not drawn" in page
    assert page.count('<td class="name mono">') == 400


def test_node_selection_prefers_neighbours_of_active_functions():
    graph = report.call_graph(big(400))
    drawn = report.drawn_nodes(graph, limit=30)
    assert drawn[:21] == ["req"] + [f"a{i}" for i in range(20)]
    neighbours = {f"n{i}" for i in range(0, 379, 7)}
    assert set(drawn[21:]) <= neighbours


def test_indirect_edges_are_dashed():
    page = report.to_html(sample())
    parser = parse(page)
    assert len(parser.with_class("path", "indirect")) == 1
    assert len(parser.with_class("path", "direct")) == 5
    assert ".edge.indirect { stroke-dasharray:" in page


def test_json_round_trip_keeps_the_numbers():
    data = sample()
    loaded = json.loads(report.to_json(data))
    assert loaded["output"] == "build/app"
    assert loaded["phases"] == {"merge": 0.25, "differentiate": 0.75}
    tape = [f["tape_bytes_per_call"] for f in loaded["functions"]]
    assert tape == [256, 128, 16, 8, None, None, None]
    assert loaded["functions"][2]["display"] == CPP_NAME
    assert [tuple(e) for e in loaded["edges"]] == data.edges
    assert loaded["requests"] == data.requests and loaded["diagnostics"] == data.diagnostics


def test_write_picks_the_format_from_the_suffix(tmp_path):
    report.write(sample(), str(tmp_path / "r.json"))
    report.write(sample(), str(tmp_path / "r.html"))
    assert json.loads((tmp_path / "r.json").read_text())["output"] == "build/app"
    assert (tmp_path / "r.html").read_text().startswith("<!DOCTYPE html>")
    assert sorted(os.listdir(tmp_path)) == ["r.html", "r.json"]


def test_write_failure_is_an_error_and_leaves_nothing_behind(tmp_path):
    (tmp_path / "dir.html").mkdir()
    with pytest.raises(LtoadError, match=r"cannot write report '.*dir.html': Is a directory"):
        report.write(sample(), str(tmp_path / "dir.html"))
    with pytest.raises(LtoadError, match="No such file or directory"):
        report.write(sample(), str(tmp_path / "missing" / "r.json"))
    assert os.listdir(tmp_path) == ["dir.html"] and os.listdir(tmp_path / "dir.html") == []


def test_layers_follow_call_distance_from_requests():
    graph = report.call_graph(sample())
    numbers = report.layer_numbers(graph)
    assert numbers["grad_f"] == 0
    assert numbers["_Z1fPd"] == 1
    assert numbers["_ZNKSt6vectorIdE2atEm"] == numbers["g"] == numbers["log"] == 2
    assert numbers["exp"] == 3
    assert numbers["main"] == 4
    layers = report.ordered_layers(graph)
    assert layers[0] == ["grad_f"] and layers[1] == ["_Z1fPd"]
    assert layers[2] == ["_ZNKSt6vectorIdE2atEm", "g", "log"]


def test_unconnected_functions_go_in_a_final_layer():
    data = sample()
    data.functions.append(FunctionInfo("lonely", "lonely", "inactive"))
    numbers = report.layer_numbers(report.call_graph(data))
    assert numbers["lonely"] == max(numbers.values()) == 5


def test_long_layers_wrap_into_rows():
    layers = report.ordered_layers(report.call_graph(big(30)))
    centres, width, height = report.positions(layers)
    assert width == 2 * report.MARGIN + report.ROW_NODES * report.COL_W
    assert len({y for _, y in centres.values()}) > len(layers)
    assert all(0 < x < width and 0 < y < height for x, y in centres.values())


def test_call_graph_prefers_direct_edges_and_skips_unknown_symbols():
    data = sample()
    data.edges += [("_Z1fPd", "g", "direct"), ("g", "_Z1fPd", "indirect"),
                   ("g", "nowhere", "direct")]
    graph = report.call_graph(data)
    assert graph.edges["_Z1fPd", "g"]["kind"] == "direct"
    assert graph.edges["g", "_Z1fPd"]["kind"] == "indirect"
    assert "nowhere" not in graph and len(graph) == len(data.functions)
