"""A Rust function (slices, iterators, f64 methods) differentiated from C through the Enzyme
API: the Rust static library's bitcode members are linked and differentiated with the C code."""

import pytest

from conftest import run, write

RUST = """
#[no_mangle]
pub extern "C" fn rosenbrock(x: *const f64, n: i32) -> f64 {
    let x = unsafe { std::slice::from_raw_parts(x, n as usize) };
    x.windows(2)
        .map(|w| 100.0 * (w[1] - w[0] * w[0]).powi(2) + (1.0 - w[0]).powi(2) + 0.1 * w[0].sin())
        .sum()
}
"""

C_MAIN = r"""
#include <stdio.h>
extern int enzyme_dup, enzyme_const;
double __enzyme_autodiff(void *, ...);
double rosenbrock(const double *x, int n);
int main(void) {
    double x[4] = {0.5, -0.3, 1.2, 0.8}, g[4] = {0};
    __enzyme_autodiff((void *)rosenbrock, enzyme_dup, x, g, enzyme_const, 4);
    for (int i = 0; i < 4; i++) {
        double h = 1e-6, keep = x[i];
        x[i] = keep + h; double up = rosenbrock(x, 4);
        x[i] = keep - h; double down = rosenbrock(x, 4);
        x[i] = keep;
        printf("%.12g %.12g\n", g[i], (up - down) / (2 * h));
    }
    return 0;
}
"""


@pytest.mark.parametrize("opt", ["0", "2"])
def test_rust_function_gradient_from_c(tmp_path, opt):
    write(tmp_path, {"lib.rs": RUST, "main.c": C_MAIN})
    run(["rustc", "--crate-type=staticlib", "-C", "linker-plugin-lto", "-C", f"opt-level={opt}",
         "-C", "panic=abort", "lib.rs", "-o", "librosen.a"], tmp_path)
    run(["ltoad-clang", "-O2", "main.c", "librosen.a", "-lm", "-o", "prog"], tmp_path)
    for line in run(["./prog"], tmp_path).stdout.splitlines():
        ad, fd = map(float, line.split())
        assert ad == pytest.approx(fd, rel=1e-6, abs=1e-6)
