"""Split mode: `__enzyme_augmentfwd` runs the forward sweep now and returns its tape,
`__enzyme_reverse` runs the reverse sweep later from that tape; checked against analytic
derivatives at every optimization level."""

from __future__ import annotations

import pytest

from conftest import build_and_run, run, write

PROGRAM = r"""
#include <math.h>
#include <stdio.h>
extern int enzyme_dup, enzyme_const;
void *__enzyme_augmentfwd(void *, ...);
void __enzyme_reverse(void *, ...);
struct taped { void *tape; double value; };
struct taped __enzyme_augmentfwd_value(void *, ...) __asm__("__enzyme_augmentfwd.value");
void step(double *x, const double *p, int n) {
    for (int i = 0; i < n; i++) x[i] = sin(x[i]) * p[i] + x[i] * x[i];
}
double energy(const double *x, int n) {
    double e = 0;
    for (int i = 0; i < n; i++) e += exp(0.3 * x[i]);
    return e;
}
int main(void) {
    double x[3] = {0.2, 0.5, -0.3}, x0[3] = {0.2, 0.5, -0.3}, dx[3] = {0}, p[3] = {1, 2, 0.5};
    double worst = 0;
    void *tape = __enzyme_augmentfwd((void *)step, enzyme_dup, x, dx, enzyme_const, p,
                                     enzyme_const, 3);
    for (int i = 0; i < 3; i++) dx[i] = 1.0;    /* the outputs' adjoints, set in between */
    __enzyme_reverse((void *)step, enzyme_dup, x, dx, enzyme_const, p, enzyme_const, 3, tape);
    for (int i = 0; i < 3; i++)
        worst = fmax(worst, fabs(dx[i] - (cos(x0[i]) * p[i] + 2 * x0[i])));
    double y[3] = {0.1, 0.2, 0.3}, dy[3] = {0};
    struct taped t = __enzyme_augmentfwd_value((void *)energy, enzyme_dup, y, dy, enzyme_const, 3);
    worst = fmax(worst, fabs(t.value - energy(y, 3)));
    __enzyme_reverse((void *)energy, enzyme_dup, y, dy, enzyme_const, 3, 2.0, t.tape);
    for (int i = 0; i < 3; i++) worst = fmax(worst, fabs(dy[i] - 2.0 * 0.3 * exp(0.3 * y[i])));
    printf("%g\n", worst);
    return 0;
}
"""


@pytest.mark.parametrize("level", ["-O0", "-O1", "-O2", "-O3"])
def test_split_mode_matches_analytic_derivatives(tmp_path, level):
    assert float(build_and_run(tmp_path, PROGRAM, level)) < 1e-12


def test_reverse_without_its_tape_is_an_error(tmp_path):
    source = PROGRAM.replace("enzyme_const, 3, tape);", "enzyme_const, 3);")
    write(tmp_path, {"s.c": source})
    result = run(["ltoad-clang", "-g", "-O1", "s.c", "-lm", "-o", "s"], tmp_path, check=False)
    assert result.returncode == 1
    assert "ltoad: error: __enzyme_reverse in 'main' (s.c:" in result.stderr
    assert "too few arguments for 'step': missing the tape (from __enzyme_augmentfwd)" \
        in result.stderr
