// A C++ objective calling a C compilation unit (extern "C") and a C++ virtual method.
#define N 4
static double X0[N] = {0.5, 1.1, -0.6, 0.9};
#include "harness.h"

extern "C" double c_kernel(const double *x, int n);

struct Penalty {
    virtual ~Penalty() = default;
    virtual double operator()(double v) const = 0;
};
struct Quadratic : Penalty {
    double w;
    explicit Quadratic(double w) : w(w) {}
    double operator()(double v) const override { return w * v * v; }
};

static double penalized(const Penalty &p, const double *x, int n) {
    double s = c_kernel(x, n);
    for (int i = 0; i < n; i++) s += p(x[i]);
    return s;
}
double mixed_loss(const double *x) {
    Quadratic q(0.3);
    return penalized(q, x, N);
}
double objective(double *x) { return mixed_loss(x); }
void gradient(double *x, double *g) { __enzyme_autodiff((void *)mixed_loss, enzyme_dup, x, g); }
