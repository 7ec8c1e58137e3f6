"""The link report (`-Wl,--ltoad-report=FILE`) on a program where most code is inactive:
only the active chain gets derivative code, the report says which functions are which, and a
failed link still writes a report naming the error."""

from __future__ import annotations

import json
import re

from conftest import run, write

CHAIN = {
    "physics.c": r"""
#include <math.h>
double spring(double a, double b) { double d = a - b - 1.0; return 0.5 * d * d; }
double potential(const double *x, int n) {
    double e = 0;
    for (int i = 0; i + 1 < n; i++) e += spring(x[i + 1], x[i]) + 0.1 * cos(x[i]);
    return e;
}
""",
    "energy.c": r"""
double potential(const double *x, int n);
double kinetic(const double *x, int n) { double k = 0; for (int i = 0; i < n; i++) k += x[i] * x[i]; return k; }
double energy(const double *x, int n) { return potential(x, n) + 0.5 * kinetic(x, n); }
""",
    "bookkeeping.c": "".join(
        f"int count_{i}(const int *v, int n) {{ int s = {i}; for (int j = 0; j < n; j++) "
        f"s += v[j] * {i + 1}; return s; }}\n" for i in range(12)) + r"""
#include <stdio.h>
void log_line(const char *what, int value) { fprintf(stderr, "%s %d\n", what, value); }
int save_counts(const char *path, const int *v, int n) {
    FILE *f = fopen(path, "w");
    if (!f) return -1;
    for (int i = 0; i < n; i++) fprintf(f, "%d\n", v[i]);
    return fclose(f);
}
""",
    "main.c": r"""
#include <stdio.h>
""" + "".join(f"int count_{i}(const int *v, int n);\n" for i in range(12)) + r"""
void log_line(const char *what, int value);
int save_counts(const char *path, const int *v, int n);
double energy(const double *x, int n);
void grad_energy(const double *x, double *dx, int n);
int main(void) {
    int v[3] = {1, 2, 3}, total = 0;
""" + "".join(f"    total += count_{i}(v, 3);\n" for i in range(12)) + r"""
    log_line("total", total);
    save_counts("/dev/null", v, 3);
    double x[4] = {0.1, 1.3, 2.0, 3.4}, dx[4] = {0}, worst = 0;
    grad_energy(x, dx, 4);
    for (int i = 0; i < 4; i++) {
        double h = 1e-6, up[4], down[4];
        for (int j = 0; j < 4; j++) up[j] = down[j] = x[j];
        up[i] += h; down[i] -= h;
        double fd = (energy(up, 4) - energy(down, 4)) / (2 * h), err = dx[i] - fd;
        if (err < 0) err = -err;
        if (err > worst) worst = err;
    }
    printf("%g\n", worst);
    return 0;
}
""",
    "ltoad.yaml": "derivatives:\n  - {name: grad_energy, of: energy, args: [dup, const]}\n",
}

UNITS = ["physics.c", "energy.c", "bookkeeping.c", "main.c"]


def _build(tmp_path, *extra, check=True, **env):
    write(tmp_path, CHAIN)
    run(["ltoad-clang", "-O1", "-c", *UNITS], tmp_path)
    objects = [u.replace(".c", ".o") for u in UNITS]
    return run(["ltoad-clang", "-O1", *objects, "-lm", "-o", "prog", *extra], tmp_path,
               check=check, **env)


def test_only_the_active_chain_gets_derivative_code(tmp_path):
    result = _build(tmp_path, "-Wl,--ltoad-report=report.json", "-Wl,--ltoad-save-temps",
                    LTOAD_VERBOSE="1")
    assert float(run(["./prog"], tmp_path).stdout) < 1e-6
    derived = set(re.findall(r"^define .*@(?:augmented|reverse)_([\w.]+?)\.\w+\(",
                             (tmp_path / "prog.ltoad.after-ad.ll").read_text(), re.M))
    assert derived and derived <= {"energy", "potential", "kinetic", "spring"}, derived
    report = json.loads((tmp_path / "report.json").read_text())
    kinds = {f["name"]: f["kind"] for f in report["functions"]}
    assert {n for n, k in kinds.items() if k == "active"} == derived
    assert all(kinds[f"count_{i}"] == "inactive" for i in range(12) if f"count_{i}" in kinds)
    assert kinds["main"] == "inactive" and kinds["grad_energy"] == "request"
    assert kinds["fprintf"] == "external"
    active = [f for f in report["functions"] if f["kind"] == "active"]
    assert all(f["active_instructions"] > 0 and f["tape_bytes_per_call"] >= 0 for f in active)
    assert ["main", "log_line", "direct"] in report["edges"] or "log_line" not in kinds
    assert report["requests"] == [
        f"{tmp_path}/ltoad.yaml:2:5: derivative 'grad_energy': reverse derivative of 'energy' "
        "(dup, const)"]
    assert {"merge", "requests", "ad", "optimize", "codegen"} <= set(report["phases"])
    parsed, total = map(int, re.search(r"AD parsed (\d+) of (\d+) functions",
                                       result.stderr).groups())
    assert parsed < total


def test_html_report_draws_the_graph(tmp_path):
    _build(tmp_path, "-Wl,--ltoad-report=report.html")
    page = (tmp_path / "report.html").read_text()
    assert page.startswith("<!DOCTYPE html>") and "<svg" in page
    assert "grad_energy" in page and "energy" in page and "Diagnostics" in page


def test_failed_link_still_reports_its_error(tmp_path):
    write(tmp_path, {"bad.yaml": "derivatives:\n  - {name: grad_energy, of: enrgy}\n"})
    result = _build(tmp_path, "-Wl,--ltoad-report=report.json", "-Wl,--ltoad-config=bad.yaml",
                    check=False)
    assert result.returncode == 1 and not (tmp_path / "prog").exists()
    report = json.loads((tmp_path / "report.json").read_text())
    assert report["diagnostics"] == ["ltoad: error: bad.yaml:2:29: no function 'enrgy' in the "
                                     "linked program; closest: energy"]


def test_recursive_functions_are_marked(tmp_path):
    write(tmp_path, {"r.c": r"""
double __enzyme_autodiff(void *, ...);
double sum(const double *x, int n) { return n == 1 ? x[0] * x[0] : sum(x, n / 2) + sum(x + n / 2, n - n / 2); }
int main(void) { double x[4] = {1, 2, 3, 4}, dx[4] = {0};
  __enzyme_autodiff((void *)sum, x, dx, 4); return dx[3] != 8; }
"""})
    run(["ltoad-clang", "-O1", "r.c", "-o", "prog", "-Wl,--ltoad-report=r.json"], tmp_path)
    assert run(["./prog"], tmp_path, check=False).returncode == 0
    shown = {f["name"]: f["display"] for f in json.loads((tmp_path / "r.json").read_text())["functions"]}
    assert shown["sum"] == "sum (recursive)" and shown["main"] == "main"


def test_indirect_calls_reach_address_taken_functions_of_their_type(tmp_path):
    from ltoad import callgraph, ir
    module = ir.parse_module("""
define double @sq(double %x) {
  %y = fmul double %x, %x
  ret double %y
}
define double @twice(double %x, i32 %n) {
  ret double %x
}
define i32 @count(i32 %n) {
  ret i32 %n
}
@table = global [3 x ptr] [ptr @sq, ptr @twice, ptr @count]
define double @apply(ptr %f, double %x) {
  %y = call double %f(double %x)
  %z = call double @twice(double %y, i32 2)
  ret double %z
}
""")
    graph = callgraph.build(module)
    assert graph.edges["apply", "twice"]["kind"] == "direct"
    assert graph.edges["apply", "sq"]["kind"] == "indirect"      # double (double), address taken
    assert set(graph.successors("apply")) == {"sq", "twice"}     # not count: i32 (i32)
    assert callgraph.recursive(graph) == set()
