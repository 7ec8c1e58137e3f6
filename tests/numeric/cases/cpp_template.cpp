// Function and class templates instantiated for the objective (a fixed-size vector type and a norm).
#define N 4
static double X0[N] = {0.8, -1.1, 0.45, 1.6};
#include "harness.h"

template <typename T, int D>
struct Vec {
    T v[D];
    T dot(const Vec &o) const {
        T s = T(0);
        for (int i = 0; i < D; i++) s += v[i] * o.v[i];
        return s;
    }
};

template <typename T>
static T smooth_abs(T v) { return std::sqrt(v * v + T(0.01)); }

template <typename T, int D>
T template_loss(const T *x) {
    Vec<T, D> a, b;
    for (int i = 0; i < D; i++) { a.v[i] = x[i]; b.v[i] = x[D - 1 - i] * T(i + 1); }
    T s = a.dot(b);
    for (int i = 0; i < D; i++) s += smooth_abs(a.v[i] - T(0.5));
    return s * s;
}

double objective(double *x) { return template_loss<double, N>(x); }
void gradient(double *x, double *g) {
    __enzyme_autodiff((void *)template_loss<double, N>, enzyme_dup, x, g);
}
