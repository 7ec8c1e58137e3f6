"""Higher order: derivatives ltoad generates are differentiated again, checked against central
differences of the lower order - forward over reverse (Hessian-vector products), reverse over
reverse, and forward over forward to 3rd and 4th derivatives.

Tape operations are ordinary code to the differentiator: the tape's buffer comes from realloc
(whose shadow ltoad knows how to make), pushes and pops are stores and loads (their tangents
and adjoints follow), and a differentiated request starts from a fresh buffer instead of the
thread-local cache (ltoad/ad/tape.py, DIFFERENTIATED_AS).
"""

from __future__ import annotations

import pytest

from conftest import build_and_run

HESSIAN_VECTOR = r"""
#include <math.h>
#include <stdio.h>
#define N 4
extern int enzyme_dup, enzyme_const;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
double f(const double *x, int n) {
    double s = 0;
    for (int i = 0; i < n; i++) s += sin(x[i]) * x[(i + 1) % n] + 0.5 * x[i] * x[i] * x[i];
    return s;
}
void grad_f(const double *x, double *g, int n) {
    for (int i = 0; i < n; i++) g[i] = 0;
    __enzyme_autodiff((void *)f, enzyme_dup, x, g, enzyme_const, n);
}
int main(void) {
    double x[N] = {0.3, -0.4, 1.1, 0.7}, v[N] = {1, 0.5, -1, 2}, g[N], hv[N] = {0}, worst = 0;
    grad_f(x, g, N);
    __enzyme_fwddiff((void *)grad_f, enzyme_dup, x, v, enzyme_dup, g, hv, enzyme_const, N);
    double h = 1e-6, up[N], down[N], gu[N], gd[N];
    for (int i = 0; i < N; i++) { up[i] = x[i] + h * v[i]; down[i] = x[i] - h * v[i]; }
    grad_f(up, gu, N); grad_f(down, gd, N);
    for (int i = 0; i < N; i++) { double fd = (gu[i] - gd[i]) / (2 * h); printf("%.10f %.10f\n", hv[i], fd); worst = fmax(worst, fabs(hv[i] - fd)); }
    printf("worst %g\n", worst);
    return 0;
}
"""

REVERSE_OVER_REVERSE_AND_NESTED_FORWARD = r"""
#include <math.h>
#include <stdio.h>
#define N 3
extern int enzyme_dup, enzyme_const, enzyme_out;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
double f(const double *x, int n) {
    double s = 0;
    for (int i = 0; i < n; i++) s += sin(x[i]) * x[(i + 1) % n] + 0.25 * x[i] * x[i] * x[i] * x[i];
    return s;
}
/* q(x) = 0.5 |grad f(x)|^2; its gradient is H grad f: reverse over reverse */
double q(const double *x, int n) {
    double g[N] = {0};
    __enzyme_autodiff((void *)f, enzyme_dup, x, g, enzyme_const, n);
    double s = 0;
    for (int i = 0; i < n; i++) s += 0.5 * g[i] * g[i];
    return s;
}
/* scalar h(t) = exp(sin t) t; derivatives by nesting forward mode */
double h(double t) { return exp(sin(t)) * t; }
double d1(double t) { return __enzyme_fwddiff((void *)h, t, 1.0); }
double d2(double t) { return __enzyme_fwddiff((void *)d1, t, 1.0); }
double d3(double t) { return __enzyme_fwddiff((void *)d2, t, 1.0); }
double d4(double t) { return __enzyme_fwddiff((void *)d3, t, 1.0); }
int main(void) {
    double x[N] = {0.3, -0.4, 1.1}, dq[N] = {0}, worst = 0, e = 1e-5;
    __enzyme_autodiff((void *)q, enzyme_dup, x, dq, enzyme_const, N);
    for (int i = 0; i < N; i++) {
        double up[N], down[N];
        for (int j = 0; j < N; j++) up[j] = down[j] = x[j];
        up[i] += e; down[i] -= e;
        double fd = (q(up, N) - q(down, N)) / (2 * e);
        worst = fmax(worst, fabs(dq[i] - fd) / fmax(1, fabs(fd)));
    }
    printf("rr %g\n", worst);
    double t = 0.7;
    printf("d3 %.9f %.9f\n", d3(t), (d2(t + e) - d2(t - e)) / (2 * e));
    printf("d4 %.9f %.9f\n", d4(t), (d3(t + e) - d3(t - e)) / (2 * e));
    return 0;
}
"""

NESTED_FORWARD = REVERSE_OVER_REVERSE_AND_NESTED_FORWARD.replace(
    "__enzyme_autodiff((void *)q, enzyme_dup, x, dq, enzyme_const, N);", "(void)q;").replace(
    'printf("rr %g\\n", worst);', "")

LEVELS = ["-O0", "-O1", "-O2", "-O3"]


def _output(tmp_path, source: str, level: str) -> list[list[str]]:
    return [line.split() for line in build_and_run(tmp_path, source, level).splitlines()]


@pytest.mark.parametrize("level", LEVELS)
def test_hessian_vector_product_forward_over_reverse(tmp_path, level):
    lines = _output(tmp_path, HESSIAN_VECTOR, level)
    assert lines[-1][0] == "worst" and float(lines[-1][1]) < 1e-7


@pytest.mark.parametrize("level", LEVELS)
def test_third_and_fourth_derivatives_by_nested_forward_mode(tmp_path, level):
    for name, got, expected in _output(tmp_path, NESTED_FORWARD, level):
        assert name in ("d3", "d4")
        assert float(got) == pytest.approx(float(expected), rel=1e-6)


@pytest.mark.parametrize("level", LEVELS)
def test_gradient_of_a_gradient_norm_reverse_over_reverse(tmp_path, level):
    lines = _output(tmp_path, REVERSE_OVER_REVERSE_AND_NESTED_FORWARD, level)
    assert lines[0][0] == "rr" and float(lines[0][1]) < 1e-7
