"""Vector IR as Rust and intrinsics produce it: reduce.fadd/fmul on <4 x double>, at -O0..-O3."""

import pytest

from conftest import run, write

KERNEL = """
define double @kernel(ptr %x) {
entry:
  %v = load <4 x double>, ptr %x, align 8
  %sq = fmul <4 x double> %v, %v
  %sum = call double @llvm.vector.reduce.fadd.v4f64(double 0.5, <4 x double> %sq)
  %prod = call double @llvm.vector.reduce.fmul.v4f64(double 2.0, <4 x double> %v)
  %both = fmul double %sum, %prod
  ret double %both
}
declare double @llvm.vector.reduce.fadd.v4f64(double, <4 x double>)
declare double @llvm.vector.reduce.fmul.v4f64(double, <4 x double>)
"""

MAIN = r"""
#include <stdio.h>
extern int enzyme_dup;
double __enzyme_autodiff(void *, ...);
double kernel(double *x);
int main(void) {
    double x[4] = {0.7, -1.2, 0.4, 1.9}, g[4] = {0};
    __enzyme_autodiff((void *)kernel, enzyme_dup, x, g);
    for (int i = 0; i < 4; i++) {
        double h = 1e-6, keep = x[i];
        x[i] = keep + h; double up = kernel(x);
        x[i] = keep - h; double down = kernel(x);
        x[i] = keep;
        printf("%.12g %.12g\n", g[i], (up - down) / (2 * h));
    }
    return 0;
}
"""


@pytest.mark.parametrize("level", ["-O0", "-O1", "-O2", "-O3"])
def test_vector_reductions_match_finite_differences(tmp_path, level):
    write(tmp_path, {"kernel.ll": KERNEL, "main.c": MAIN})
    run(["ltoad-clang", level, "-c", "kernel.ll", "-o", "kernel.o"], tmp_path)
    run(["ltoad-clang", level, "main.c", "kernel.o", "-o", "prog"], tmp_path)
    for line in run(["./prog"], tmp_path).stdout.splitlines():
        ad, fd = map(float, line.split())
        assert ad == pytest.approx(fd, rel=1e-6, abs=1e-8)
