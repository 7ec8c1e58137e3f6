"""ltoad.yaml: reading (located errors), finding the file, and derivatives defined at link time
for programs without any `__enzyme_*` call, checked against central differences."""

from __future__ import annotations

import re

import pytest
from conftest import run, write

from ltoad import configfile
from ltoad.ad.config_requests import c_return
from ltoad.diagnostics import LtoadError
from ltoad.ir.types import VOID, FloatType, StructType, VectorType

F32, F64 = FloatType("float"), FloatType("double")

BAD_CONFIGS = {
    "unknown key": ("derivatives:\n  - name: g\n    of: f\n    mod: reverse\n",
                    r"ltoad\.yaml:4:5: unknown key 'mod' in a derivative; did you mean 'mode'\?"),
    "unknown top key": ("derivative:\n  - name: g\n",
                        r"ltoad\.yaml:1:1: unknown key 'derivative' in the config; "
                        r"did you mean 'derivatives'\?"),
    "missing of": ("derivatives:\n  - name: g\n", r"ltoad\.yaml:2:5: a derivative needs 'of'"),
    "wrong activity": ("derivatives:\n  - {name: g, of: f, args: [dup, outt]}\n",
                       r"ltoad\.yaml:2:34: activity 'outt' is not one of dup, dupnoneed, const, "
                       r"out; did you mean 'out'\?"),
    "args not a list": ("derivatives:\n  - {name: g, of: f, args: dup}\n",
                        r"ltoad\.yaml:2:28: 'args' must be a list"),
    "wrong type": ("inactive: [a]\n",
                   r"ltoad\.yaml:1:11: 'inactive' must be a mapping with keys: functions, globals"),
    "number as name": ("derivatives:\n  - name: 1\n    of: f\n",
                       r"ltoad\.yaml:2:11: 'name' must be a name, not '1'"),
    "invalid yaml": ("derivatives: [\n", r"ltoad\.yaml:2:1: invalid YAML"),
    "unknown mode": ("derivatives:\n  - {name: g, of: f, mode: revers}\n",
                     r"ltoad\.yaml:2:28: mode 'revers' is not one of reverse, forward; "
                     r"did you mean 'reverse'\?"),
    "opt level": ("options: {opt_level: 5}\n", r"ltoad\.yaml:1:22: opt_level '5' is not one of"),
    "custom incomplete": ("custom:\n  - of: f\n    augmented: fa\n",
                          r"ltoad\.yaml:2:5: a custom derivative needs 'reverse'"),
}


@pytest.mark.parametrize("name", BAD_CONFIGS)
def test_config_errors_are_located(name):
    text, pattern = BAD_CONFIGS[name]
    with pytest.raises(LtoadError) as error:
        configfile.parse(text, "ltoad.yaml")
    assert re.match(pattern, str(error.value)), str(error.value)


def test_full_config_is_read(tmp_path):
    path = tmp_path / "ltoad.yaml"
    path.write_text("derivatives:\n  - name: grad_e\n    of: 'ns::e(double const*, int)'\n"
                    "    mode: reverse\n    args: [dup, const]\n"
                    "inactive:\n  functions: ['log_*', progress]\n  globals: [counter]\n"
                    "custom:\n  - {of: solve, augmented: solve_aug, reverse: solve_rev}\n"
                    "options: {opt_level: 3, report: out/r.html, ad_before_opt: true}\n")
    config = configfile.load(str(path))
    (entry,) = config.derivatives
    assert (entry.name, entry.of, entry.args) == ("grad_e", "ns::e(double const*, int)",
                                                  ("dup", "const"))
    assert str(entry.args_where) == f"{path}:5:11"
    assert config.inactive_functions == ("log_*", "progress")
    assert config.inactive_globals == ("counter",)
    assert config.custom[0].reverse == "solve_rev"
    assert config.options == configfile.Options(3, str(tmp_path / "out" / "r.html"), True)


def test_config_is_found_explicitly_by_environment_or_upward(tmp_path, monkeypatch):
    (tmp_path / "ltoad.yaml").write_text("")
    deep = tmp_path / "a" / "b"
    deep.mkdir(parents=True)
    monkeypatch.delenv("LTOAD_CONFIG", raising=False)
    assert configfile.find(start=str(deep)) == str(tmp_path / "ltoad.yaml")
    monkeypatch.setenv("LTOAD_CONFIG", "/elsewhere.yaml")
    assert configfile.find(start=str(deep)) == "/elsewhere.yaml"
    assert configfile.find("given.yaml", start=str(deep)) == "given.yaml"


def test_derivatives_come_back_as_c_returns_a_struct_of_them():
    assert c_return([]) == (VOID, None)
    assert c_return([F64]) == (F64, None)
    assert c_return([F64, F64]) == (StructType((F64, F64)), None)
    assert c_return([F32, F32]) == (VectorType(2, F32), None)
    assert c_return([F32, F32, F32]) == (StructType((VectorType(2, F32), F32)), None)
    assert c_return([F64, F64, F64]) == (VOID, StructType((F64, F64, F64)))


ENERGY = """\
#include <math.h>
struct params { double k, r0; };
static double bond(double a, double b, const struct params *p) {
    double r = sqrt((a - b) * (a - b) + 1e-3) - p->r0;
    return p->k * r * r;
}
double energy(const double *x, const struct params *p, int n) {
    double e = 0;
    for (int i = 0; i + 1 < n; i++) e += bond(x[i], x[i + 1], p) + sin(x[i]);
    return e;
}
double scaled(double a, double b) { return a * a * b + sin(b); }
double tri(float a, float b, float c) { return (double)a * b * c + expf(c); }
double three(double a, double b, double c) { return a * b * c + exp(a); }
"""

MAIN = """\
#include <math.h>
#include <stdio.h>
struct params { double k, r0; };
double energy(const double *x, const struct params *p, int n);
double scaled(double a, double b);
double tri(float a, float b, float c);
double three(double a, double b, double c);
void grad_energy(const double *x, double *dx, const struct params *p, int n);
struct two { double da, db; };
struct two grad_scaled(double a, double b);
struct tri3 { float a, b, c; };
struct tri3 grad_tri(float a, float b, float c);
struct three3 { double a, b, c; };
struct three3 grad_three(double a, double b, double c);
static double worst = 0;
static void check(double got, double want) {
    double error = fabs(got - want) / (fabs(want) + 1e-3);
    if (error > worst) worst = error;
}
int main(void) {
    double x[5] = {0.1, 0.7, 1.5, 2.0, 2.2}, dx[5] = {0};
    struct params p = {2.0, 0.5};
    grad_energy(x, dx, &p, 5);
    for (int i = 0; i < 5; i++) {
        double h = 1e-6, up[5], down[5];
        for (int j = 0; j < 5; j++) up[j] = down[j] = x[j];
        up[i] += h; down[i] -= h;
        check(dx[i], (energy(up, &p, 5) - energy(down, &p, 5)) / (2 * h));
    }
    struct two g = grad_scaled(1.5, 0.3);
    check(g.da, 2 * 1.5 * 0.3);
    check(g.db, 1.5 * 1.5 + cos(0.3));
    struct tri3 t = grad_tri(1.5f, 0.5f, 2.0f);
    check(t.a, 0.5 * 2.0);
    check(t.b, 1.5 * 2.0);
    check(t.c, 1.5 * 0.5 + exp(2.0));
    struct three3 h = grad_three(1.5, 0.5, 2.0);
    check(h.a, 0.5 * 2.0 + exp(1.5));
    check(h.b, 1.5 * 2.0);
    check(h.c, 1.5 * 0.5);
    printf("worst %g\\n", worst);
    return 0;
}
"""

CONFIG = """\
derivatives:
  - name: grad_energy
    of: energy
    args: [dup, const, const]
  - name: grad_scaled
    of: scaled
  - {name: grad_tri, of: tri}
  - {name: grad_three, of: three, mode: reverse, args: [out, out, out]}
"""


@pytest.mark.parametrize("level", ["-O0", "-O1", "-O2", "-O3"])
def test_yaml_derivatives_match_finite_differences(tmp_path, level):
    write(tmp_path, {"energy.c": ENERGY, "main.c": MAIN, "ltoad.yaml": CONFIG})
    for unit in ("energy.c", "main.c"):
        run(["ltoad-clang", level, "-c", unit], tmp_path)
    run(["ltoad-clang", level, "energy.o", "main.o", "-lm", "-o", "prog"], tmp_path)
    worst = float(run(["./prog"], tmp_path).stdout.split()[-1])
    assert worst < 1e-6


LINK_ERRORS = {
    "unknown function": ("derivatives:\n  - name: grad_energy\n    of: enrgy\n",
                         r"ltoad: error: .*ltoad\.yaml:3:9: no function 'enrgy' in the linked "
                         r"program; closest: energy"),
    "wrong count": ("derivatives:\n  - name: grad_energy\n    of: energy\n    args: [dup, const]\n",
                    r"ltoad: error: .*ltoad\.yaml:4:11: 'args' has 2 entries, but 'energy' takes "
                    r"3 parameters \(ptr, ptr, i32\)"),
    "collision": ("derivatives:\n  - name: scaled\n    of: energy\n",
                  r"ltoad: error: .*ltoad\.yaml:2:5: derivative name 'scaled' is already defined "
                  r"in the program; choose another name"),
    "signature": ("derivatives:\n  - name: grad_energy\n    of: energy\n",
                  r"ltoad: error: .*ltoad\.yaml:2:5: the program declares 'grad_energy' as "
                  r"void \(ptr, ptr, ptr, i32\), but the derivative of 'energy' is "
                  r"void \(ptr, ptr, ptr, ptr, i32\) \(activities by type: dup, dup, const; "
                  r"set 'args' to choose\)"),
    "out on a pointer": ("derivatives:\n  - {name: grad_energy, of: energy, "
                         "args: [out, const, const]}\n",
                         r"ltoad: error: .*ltoad\.yaml:2:43: argument 1 of 'energy' is ptr: 'out' "
                         r"needs a floating-point argument"),
}

USER = """\
struct params { double k, r0; };
void grad_energy(const double *x, double *dx, const struct params *p, int n);
int main(void) {
    double x[2] = {1, 2}, dx[2] = {0};
    struct params p = {1, 0};
    grad_energy(x, dx, &p, 2);
    return dx[0] < -1.0;   /* 2 (x0 - x1) + cos(x0) */
}
"""


@pytest.mark.parametrize("name", LINK_ERRORS)
def test_link_errors_point_into_the_config(tmp_path, name):
    text, pattern = LINK_ERRORS[name]
    write(tmp_path, {"energy.c": ENERGY, "user.c": USER, "ltoad.yaml": text})
    run(["ltoad-clang", "-O1", "-c", "energy.c", "user.c"], tmp_path)
    result = run(["ltoad-clang", "-O1", "energy.o", "user.o", "-lm", "-o", "prog"], tmp_path,
                 check=False)
    lines = [line for line in result.stderr.splitlines() if line.startswith("ltoad")]
    assert result.returncode == 1 and len(lines) == 1, result.stderr
    assert re.match(pattern, lines[0]), lines[0]
    assert not (tmp_path / "prog").exists()


def test_config_given_on_the_command_line_wins(tmp_path):
    write(tmp_path, {"energy.c": ENERGY, "user.c": USER, "ltoad.yaml": "derivatives: [\n",
                     "good.yaml": "derivatives:\n  - {name: grad_energy, of: energy, "
                                  "args: [dup, const, const]}\n"})
    run(["ltoad-clang", "-O1", "-c", "energy.c", "user.c"], tmp_path)
    run(["ltoad-clang", "-O1", "energy.o", "user.o", "-lm", "-o", "prog",
         "-Wl,--ltoad-config=good.yaml"], tmp_path)
    assert run(["./prog"], tmp_path, check=False).returncode == 1


def test_check_config_command(tmp_path):
    write(tmp_path, {"ltoad.yaml": CONFIG, "bad.yaml": "derivatives:\n - nme: x\n"})
    deep = tmp_path / "src"
    deep.mkdir()
    good = run(["ltoad", "check-config"], deep)
    assert "4 derivatives" in good.stdout and "grad_three = reverse derivative of three " \
        "(out, out, out)" in good.stdout
    bad = run(["ltoad", "check-config", "bad.yaml"], tmp_path, check=False)
    assert bad.returncode == 1
    assert bad.stderr.strip() == "ltoad: error: bad.yaml:2:4: unknown key 'nme' in a derivative; " \
        "did you mean 'name'?"


ANNOTATED = {
    "model.c": r"""
#include <math.h>
int counter;
double last_value;
double sq(double x);
void log_progress(double value);     /* native code, no bitcode: no body in the link */
double f(double x) {
    counter += 1;
    last_value = sin(x) * x;         /* an active value into an inactive global */
    log_progress(x);
    return sq(x) + sin(x) * x;
}
""",
    "square.c": r"""
int custom_calls;
double sq(double x) { return x * x; }
double sq_aug(double x) { return x * x; }
/* deliberately 50 times the true derivative, so the test sees that it is the one used */
double sq_rev(double x, double d) { custom_calls++; return 100 * x * d; }
""",
    "log.c": "#include <stdio.h>\nvoid log_progress(double v) { fprintf(stderr, \"at %g\\n\", v); }\n",
    "main.c": r"""
#include <math.h>
#include <stdio.h>
extern int custom_calls;
double grad_f(double x);
int main(void) {
    printf("%.12g %.12g %d\n", grad_f(2.0), 100 * 2.0 + sin(2.0) + cos(2.0) * 2.0, custom_calls);
    return 0;
}
""",
    "ltoad.yaml": """\
derivatives:
  - {name: grad_f, of: f}
inactive:
  functions: ["log_*"]
  globals: [counter, "last_*"]
custom:
  - {of: sq, augmented: sq_aug, reverse: sq_rev}
""",
}


@pytest.mark.parametrize("level", ["-O0", "-O2"])
def test_yaml_inactive_and_custom(tmp_path, level):
    write(tmp_path, ANNOTATED)
    run(["clang-22", "-O2", "-c", "log.c"], tmp_path)
    run(["ltoad-clang", level, "-c", "model.c", "square.c", "main.c"], tmp_path)
    run(["ltoad-clang", level, "model.o", "square.o", "main.o", "log.o", "-lm", "-o", "p"],
        tmp_path)
    got, expected, calls = run(["./p"], tmp_path).stdout.split()
    assert float(got) == pytest.approx(float(expected), rel=1e-12)
    assert calls == "1"


def test_without_inactive_pattern_the_native_call_is_an_error(tmp_path):
    write(tmp_path, {**ANNOTATED, "ltoad.yaml": ANNOTATED["ltoad.yaml"].replace('"log_*"', "x")})
    run(["clang-22", "-O2", "-c", "log.c"], tmp_path)
    run(["ltoad-clang", "-O1", "-c", "model.c", "square.c", "main.c"], tmp_path)
    result = run(["ltoad-clang", "-O1", "model.o", "square.o", "main.o", "log.o", "-lm", "-o",
                  "p"], tmp_path, check=False)
    assert result.returncode == 1
    assert "cannot differentiate call to 'log_progress' in 'f'" in result.stderr


CXX = {
    "phys.cpp": r"""
#include <cmath>
#include "phys.h"
namespace phys {
double energy(const double *x, int n) {
    double e = 0;
    for (int i = 0; i < n; i++) e += std::sin(x[i]) * x[i];
    return e;
}
double energy(const double *x, int n, double scale) { return scale * energy(x, n); }
double Spring::energy(const double *x, int n) const {
    double e = 0;
    for (int i = 0; i + 1 < n; i++) e += 0.5 * k * (x[i + 1] - x[i]) * (x[i + 1] - x[i]);
    return e;
}
}
""",
    "phys.h": r"""
namespace phys {
double energy(const double *x, int n);
double energy(const double *x, int n, double scale);
struct Spring { double k; double energy(const double *x, int n) const; };
}
""",
    "main.cpp": r"""
#include <cmath>
#include <cstdio>
#include "phys.h"
extern "C" void grad_plain(const double *x, double *dx, int n);
extern "C" void grad_spring(const phys::Spring *s, const double *x, double *dx, int n);
int main() {
    double x[3] = {0.3, 1.1, 2.5}, dx[3] = {0}, ds[3] = {0}, worst = 0;
    phys::Spring spring{3.0};
    grad_plain(x, dx, 3);
    grad_spring(&spring, x, ds, 3);
    for (int i = 0; i < 3; i++) {
        double h = 1e-6, up[3] = {x[0], x[1], x[2]}, down[3] = {x[0], x[1], x[2]};
        up[i] += h; down[i] -= h;
        double fd = (phys::energy(up, 3) - phys::energy(down, 3)) / (2 * h);
        double fs = (spring.energy(up, 3) - spring.energy(down, 3)) / (2 * h);
        worst = std::fmax(worst, std::fmax(std::fabs(dx[i] - fd), std::fabs(ds[i] - fs)));
    }
    std::printf("%g %g\n", worst, phys::energy(x, 3, 2.0));
    return 0;
}
""",
    "ltoad.yaml": """\
derivatives:
  - name: grad_plain
    of: phys::energy(double const*, int)
    args: [dup, const]
  - name: grad_spring
    of: "phys::Spring::energy(double const *, int) const"   # the object pointer comes first
    args: [const, dup, const]
""",
}


def _build_cxx(tmp_path, level="-O2", check=True):
    write(tmp_path, CXX)
    run(["ltoad-clang++", level, "-c", "phys.cpp", "main.cpp"], tmp_path)
    return run(["ltoad-clang++", level, "phys.o", "main.o", "-o", "p"], tmp_path, check=check)


@pytest.mark.parametrize("level", ["-O0", "-O3"])
def test_cxx_overload_and_method_by_demangled_name(tmp_path, level):
    _build_cxx(tmp_path, level)
    assert float(run(["./p"], tmp_path).stdout.split()[0]) < 1e-6


def test_ambiguous_cxx_name_lists_the_overloads(tmp_path):
    CXX_AMBIGUOUS = CXX["ltoad.yaml"].replace("phys::energy(double const*, int)", "phys::energy")
    write(tmp_path, {**CXX, "ltoad.yaml": CXX_AMBIGUOUS})
    run(["ltoad-clang++", "-O1", "-c", "phys.cpp", "main.cpp"], tmp_path)
    result = run(["ltoad-clang++", "-O1", "phys.o", "main.o", "-o", "p"], tmp_path, check=False)
    assert result.returncode == 1
    assert "ltoad.yaml:3:9: 'phys::energy' names 2 functions (phys::energy(double const*, int); " \
        "phys::energy(double const*, int, double)); write the parameter types to choose one" \
        in result.stderr


FORWARD = {
    "model.c": r"""
#include <math.h>
double field(const double *x, int n, double scale) {
    double s = 0;
    for (int i = 0; i < n; i++) s += scale * sin(x[i]) * x[i];
    return s;
}
""",
    "main.c": r"""
#include <math.h>
#include <stdio.h>
double field(const double *x, int n, double scale);
double jvp_field(const double *x, const double *v, int n, double scale, double dscale);
int main(void) {
    double x[3] = {0.2, 1.1, -0.4}, v[3] = {1.0, 0.5, -2.0}, h = 1e-6, up[3], down[3];
    for (int i = 0; i < 3; i++) { up[i] = x[i] + h * v[i]; down[i] = x[i] - h * v[i]; }
    double fd = (field(up, 3, 1.5 + h * 0.3) - field(down, 3, 1.5 - h * 0.3)) / (2 * h);
    printf("%.12g %.12g\n", jvp_field(x, v, 3, 1.5, 0.3), fd);
    return 0;
}
""",
    "ltoad.yaml": "derivatives:\n  - {name: jvp_field, of: field, mode: forward}\n",
}


@pytest.mark.parametrize("level", ["-O0", "-O2"])
def test_yaml_forward_mode(tmp_path, level):
    write(tmp_path, FORWARD)
    run(["ltoad-clang", level, "-c", "model.c", "main.c"], tmp_path)
    run(["ltoad-clang", level, "model.o", "main.o", "-lm", "-o", "p"], tmp_path)
    got, expected = map(float, run(["./p"], tmp_path).stdout.split())
    assert got == pytest.approx(expected, rel=1e-7)


def test_yaml_forward_mode_rejects_out(tmp_path):
    write(tmp_path, {**FORWARD, "ltoad.yaml": "derivatives:\n  - {name: jvp_field, of: field, "
                                              "mode: forward, args: [dup, const, out]}\n"})
    run(["ltoad-clang", "-O1", "-c", "model.c", "main.c"], tmp_path)
    result = run(["ltoad-clang", "-O1", "model.o", "main.o", "-lm", "-o", "p"], tmp_path,
                 check=False)
    assert result.returncode == 1
    assert "ltoad.yaml:2:55: argument 3 of 'field': 'out' has no meaning in forward mode" \
        in result.stderr, result.stderr


WIDTH = {
    "model.c": FORWARD["model.c"],
    "main.c": r"""
#include <math.h>
#include <stddef.h>
#include <stdio.h>
double field(const double *x, int n, double scale);
struct four { double d[4]; };
struct four jac4(const double *x, const double *V, size_t stride, int n, double scale);
int main(void) {
    double x[5] = {0.2, 1.1, -0.4, 0.8, 0.3}, V[4][5] = {{0}}, worst = 0, h = 1e-6;
    for (int k = 0; k < 4; k++) V[k][k] = 1.0;
    V[3][4] = 2.0;
    struct four t = jac4(x, V[0], sizeof V[0], 5, 1.5);
    for (int k = 0; k < 4; k++) {
        double up[5], down[5];
        for (int i = 0; i < 5; i++) { up[i] = x[i] + h * V[k][i]; down[i] = x[i] - h * V[k][i]; }
        worst = fmax(worst, fabs(t.d[k] - (field(up, 5, 1.5) - field(down, 5, 1.5)) / (2 * h)));
    }
    printf("%g\n", worst);
    return 0;
}
""",
    "ltoad.yaml": "derivatives:\n  - {name: jac4, of: field, mode: forward, width: 4, "
                  "args: [dup, const, const]}\n",
}


@pytest.mark.parametrize("level", ["-O0", "-O2"])
def test_yaml_forward_mode_with_width(tmp_path, level):
    write(tmp_path, WIDTH)
    run(["ltoad-clang", level, "-c", "model.c", "main.c"], tmp_path)
    run(["ltoad-clang", level, "model.o", "main.o", "-lm", "-o", "p"], tmp_path)
    assert float(run(["./p"], tmp_path).stdout) < 1e-7


def test_width_needs_forward_mode():
    with pytest.raises(LtoadError, match=r"ltoad\.yaml:2:29: 'width' needs 'mode: forward'"):
        configfile.parse("derivatives:\n  - {name: g, of: f, width: 4}\n", "ltoad.yaml")
