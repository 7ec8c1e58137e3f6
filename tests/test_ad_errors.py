"""Code ltoad cannot differentiate, and wrong API calls, give one located `ltoad: error:`."""

from __future__ import annotations

import re

import pytest

from conftest import run, write

API = "double __enzyme_autodiff(void *, ...);\nextern int enzyme_dup, enzyme_const, enzyme_out;\n"

CASES = {
    "no body, no rule": (
        "double mystery(double);\ndouble f(double x) {\n  return mystery(x) * x;\n}\n"
        "int main(void) { return (int)__enzyme_autodiff((void *)f, 2.0); }\n",
        r"ltoad: error: cannot differentiate call to 'mystery' in 'f' \(case\.c:5\): no body and "
        r"no derivative rule; add a custom derivative or mark it enzyme_inactive"),
    "inline asm": (
        "double f(double x) {\n  double y;\n  __asm__(\"movsd %1, %0\" : \"=x\"(y) : \"x\"(x));\n"
        "  return y * y;\n}\n"
        "int main(void) { return (int)__enzyme_autodiff((void *)f, 2.0); }\n",
        r"ltoad: error: cannot differentiate inline assembly in 'f' \(case\.c:\d+\)"),
    "too few arguments": (
        "double f(double *x, int n) { return x[0] * n; }\n"
        "int main(void) { double x = 1, dx = 0;\n"
        "  return (int)__enzyme_autodiff((void *)f, enzyme_dup, &x, &dx); }\n",
        r"ltoad: error: __enzyme_autodiff in 'main' \(case\.c:\d+\): too few arguments for 'f': "
        r"missing argument 2 \(i32\)"),
    "marker without its value": (
        "double f(double *x, int n) { return x[0] * n; }\n"
        "int main(void) { double x = 1;\n"
        "  return (int)__enzyme_autodiff((void *)f, enzyme_dup, &x, enzyme_const, 3); }\n",
        r"ltoad: error: __enzyme_autodiff in 'main' \(case\.c:\d+\): expected the shadow of "
        r"argument 1, found marker enzyme_const"),
    "enzyme_out in forward mode": (
        "double __enzyme_fwddiff(void *, ...);\n"
        "double sq(double x) { return x * x; }\n"
        "int main(void) { return (int)__enzyme_fwddiff((void *)sq, enzyme_out, 2.0); }\n",
        r"ltoad: error: __enzyme_fwddiff in 'main' \(case\.c:\d+\): enzyme_out has no meaning in "
        r"forward mode \(argument 1\); pass a float as enzyme_dup with its tangent, or enzyme_const"),
    "not a function": (
        "double sq(double x) { return x * x; }\n"
        "double (*volatile chosen)(double) = sq;\n"
        "int main(void) { return (int)__enzyme_autodiff((void *)chosen, 1.0); }\n",
        r"ltoad: error: __enzyme_autodiff in 'main' \(case\.c:\d+\): the first argument must be "
        r"a function known at link time"),
}


@pytest.mark.parametrize("name", CASES)
def test_located_error(tmp_path, name):
    source, pattern = CASES[name]
    write(tmp_path, {"case.c": API + source})
    result = run(["ltoad-clang", "-g", "-O1", "case.c", "-o", "prog"], tmp_path, check=False)
    assert result.returncode == 1
    lines = [line for line in result.stderr.splitlines() if line.startswith("ltoad")]
    assert len(lines) == 1 and re.match(pattern, lines[0]), result.stderr
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "prog").exists()


def test_function_chosen_at_run_time_among_known_ones(tmp_path):
    """clang merges `which ? autodiff(f, x) : autodiff(g, x)` into one call on a select of f
    and g; the request dispatches on the pointer."""
    write(tmp_path, {"case.c": API + r"""
#include <math.h>
#include <stdio.h>
double f(double x) { return x * x * x; }
double g(double x) { return sin(x) * 4.0; }
__attribute__((noinline)) double grad(int which, double x) {
    if (which) return __enzyme_autodiff((void *)f, x);
    return __enzyme_autodiff((void *)g, x);
}
int main(void) { printf("%.12f %.12f\n", grad(1, 2.0), grad(0, 0.5)); return 0; }
"""})
    for level in ("-O0", "-O2"):
        run(["ltoad-clang", level, "case.c", "-lm", "-o", "prog"], tmp_path)
        cube, sine = map(float, run(["./prog"], tmp_path).stdout.split())
        assert cube == 12.0 and abs(sine - 4 * 0.8775825618903728) < 1e-12
