"""Enzyme's custom-derivative registration and enzyme_inactive, at every optimization level."""

import pytest

from conftest import run, write

PROGRAM = r"""
#include <stdio.h>
#include <math.h>
double __enzyme_autodiff(void *, ...);
__attribute__((noinline)) double sq(double x) { return x * x; }
double sq_aug(double x) { return x * x; }
/* deliberately 50 times the true derivative, so the test sees that it is the one used */
double sq_rev(double x, double d) { return 100 * x * d; }
void *__enzyme_register_gradient_sq[3] = {(void *)sq, (void *)sq_aug, (void *)sq_rev};
int counter __attribute__((enzyme_inactive));
double last_value __attribute__((enzyme_inactive));
__attribute__((enzyme_inactive)) double logit(double x) { return exp(x); }
double f(double x) {
    counter += 1;
    last_value = sin(x) * x;     /* an active value into an inactive global: no derivative */
    return sq(x) + sin(x) * logit(x);
}
int main(void) {
    printf("%.12g %.12g\n", __enzyme_autodiff((void *)f, 2.0), 100 * 2.0 + cos(2.0) * exp(2.0));
    return 0;
}
"""


@pytest.mark.parametrize("level", ["-O0", "-O1", "-O2", "-O3"])
def test_custom_derivative_and_inactive_function(tmp_path, level):
    write(tmp_path, {"p.c": PROGRAM})
    run(["ltoad-clang", level, "p.c", "-lm", "-o", "p"], tmp_path)
    got, expected = run(["./p"], tmp_path).stdout.split()
    assert float(got) == pytest.approx(float(expected), rel=1e-12)


def test_custom_derivative_with_wrong_signature(tmp_path):
    write(tmp_path, {"p.c": PROGRAM.replace("double sq_rev(double x, double d)",
                                            "double sq_rev(double x)").replace("* d;", ";")})
    result = run(["ltoad-clang", "-O2", "p.c", "-lm", "-o", "p"], tmp_path, check=False)
    assert result.returncode == 1
    assert "ltoad: error: custom reverse 'sq_rev' has type double (double); " \
           "ltoad calls it as double (double, double)" in result.stderr
