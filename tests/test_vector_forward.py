"""Vector forward mode: `enzyme_width N` with `enzyme_dupv` pointers gives N directional
derivatives per call; a 20-input Jacobian row at widths 4 and 8 against central differences."""

from __future__ import annotations

import re

import pytest

from conftest import build_and_run, run, write

PROGRAM = r"""
#include <math.h>
#include <stdio.h>
#define N 20
extern int enzyme_dupv, enzyme_const, enzyme_width, enzyme_dup;
struct four { double d[4]; };
struct eight { double d[8]; };
struct four __enzyme_fwddiff4(void *, ...) __asm__("__enzyme_fwddiff.four");
struct eight __enzyme_fwddiff8(void *, ...) __asm__("__enzyme_fwddiff.eight");
double f(const double *x, int n) {
    double s = 0;
    for (int i = 0; i < n; i++) s += sin(x[i]) * x[(i + 3) % n] + exp(0.05 * x[i] * x[i]);
    return s;
}
static double worst;
static void check(const double *x, const double *v, double tangent) {
    double h = 1e-6, up[N], down[N];
    for (int i = 0; i < N; i++) { up[i] = x[i] + h * v[i]; down[i] = x[i] - h * v[i]; }
    worst = fmax(worst, fabs(tangent - (f(up, N) - f(down, N)) / (2 * h)));
}
int main(void) {
    double x[N], V[8][N];
    for (int i = 0; i < N; i++) x[i] = 0.1 * i - 0.7;
    for (int base = 0; base < N; base += 4) {
        for (int k = 0; k < 4; k++) for (int i = 0; i < N; i++) V[k][i] = (i == base + k);
        struct four t = __enzyme_fwddiff4((void *)f, enzyme_width, 4, enzyme_dupv,
                                          sizeof(double) * N, x, V[0], enzyme_const, N);
        for (int k = 0; k < 4; k++) check(x, V[k], t.d[k]);
    }
    for (int base = 0; base < 16; base += 8) {
        for (int k = 0; k < 8; k++) for (int i = 0; i < N; i++) V[k][i] = (i == base + k) + 0.5 * (i == k);
        struct eight t = __enzyme_fwddiff8((void *)f, enzyme_width, 8, enzyme_dupv,
                                           (int)(sizeof(double) * N), x, V[0], enzyme_const, N);
        for (int k = 0; k < 8; k++) check(x, V[k], t.d[k]);
    }
    printf("%g\n", worst);
    return 0;
}
"""


@pytest.mark.parametrize("level", ["-O0", "-O1", "-O2", "-O3"])
def test_jacobian_by_width_4_and_8_matches_finite_differences(tmp_path, level):
    assert float(build_and_run(tmp_path, PROGRAM, level)) < 1e-7


ERRORS = {
    "dup in vector mode": ("enzyme_dupv,\n                                          sizeof(double) * N, x, V[0]",
                           "enzyme_dup, x, V[0]",
                           r"with enzyme_width 4, argument 1 must be enzyme_dupv"),
    "width not first": ("enzyme_width, 4, enzyme_dupv", "enzyme_dupv, 0, x, V[0], enzyme_width, 4, "
                        "enzyme_dupv", r"__enzyme_fwddiff in 'main': enzyme_width must come first, "
                        r"before the arguments"),
}


@pytest.mark.parametrize("name", ERRORS)
def test_vector_mode_errors(tmp_path, name):
    old, new, pattern = ERRORS[name]
    assert old in PROGRAM
    write(tmp_path, {"j.c": PROGRAM.replace(old, new, 1)})
    result = run(["ltoad-clang", "-O1", "j.c", "-lm", "-o", "j"], tmp_path, check=False)
    assert result.returncode == 1 and re.search(pattern, result.stderr), result.stderr


RESIDUAL = r"""
#include <math.h>
#include <stdio.h>
#include <string.h>
#define N 6
extern int enzyme_dupv, enzyme_const, enzyme_width;
void __enzyme_fwddiff(void *, ...);
__attribute__((noinline)) double law(const double *x, int i) {
    return exp(0.2 * x[i]) * sin(x[(i + 1) % N]);
}
__attribute__((noinline)) void residual(const double *x, double *r, int n) {
    double scratch[N];
    for (int i = 0; i < n; i++) scratch[i] = law(x, i);
    for (int i = 0; i < n; i++) r[i] = scratch[i] * x[i] + scratch[(i + 2) % n];
}
int main(void) {
    double x[N], r[N], V[4][N], R[4][N], worst = 0;
    for (int i = 0; i < N; i++) x[i] = 0.3 * i - 0.4;
    memset(R, 0, sizeof R);
    for (int k = 0; k < 4; k++) for (int i = 0; i < N; i++) V[k][i] = (i == k) + 0.25 * (i == k + 2);
    __enzyme_fwddiff((void *)residual, enzyme_width, 4, enzyme_dupv, sizeof(double) * N, x, V[0],
                     enzyme_dupv, sizeof(double) * N, r, R[0], enzyme_const, N);
    for (int k = 0; k < 4; k++) {
        double h = 1e-6, up[N], down[N], ru[N], rd[N];
        for (int i = 0; i < N; i++) { up[i] = x[i] + h * V[k][i]; down[i] = x[i] - h * V[k][i]; }
        residual(up, ru, N); residual(down, rd, N);
        for (int i = 0; i < N; i++) worst = fmax(worst, fabs(R[k][i] - (ru[i] - rd[i]) / (2 * h)));
    }
    printf("%g\n", worst);
    return 0;
}
"""


@pytest.mark.parametrize("level", ["-O0", "-O2"])
def test_width_4_through_calls_stack_arrays_and_output_pointers(tmp_path, level):
    assert float(build_and_run(tmp_path, RESIDUAL, level)) < 1e-7
