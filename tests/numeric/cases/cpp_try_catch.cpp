// A try/catch around calls that may throw but do not (invoke and landing pads in the active function).
#include <stdexcept>
#define N 3
static double X0[N] = {1.2, 0.5, 2.0};
#include "harness.h"

__attribute__((noinline)) static double checked_log(double v) {
    if (v <= 0.0) throw std::domain_error("log of a non-positive value");
    return std::log(v);
}
double guarded(const double *x) {
    double s = 0.0;
    try {
        s = checked_log(x[0]) * x[1] + checked_log(x[2] * x[0]);
    } catch (const std::domain_error &) {
        s = -1.0;
    }
    return s * s;
}
double objective(double *x) { return guarded(x); }
void gradient(double *x, double *g) { __enzyme_autodiff((void *)guarded, enzyme_dup, x, g); }
