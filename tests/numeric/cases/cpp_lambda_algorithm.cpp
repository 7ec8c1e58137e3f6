// Lambdas passed to standard algorithms (std::transform, std::inner_product, std::accumulate).
#include <algorithm>
#include <array>
#include <numeric>
#define N 4
static double X0[N] = {0.6, 1.3, -0.7, 0.2};
#include "harness.h"

double algo_loss(const double *x) {
    std::array<double, N> y;
    const double scale = 1.5;
    std::transform(x, x + N, y.begin(), [scale](double v) { return std::tanh(scale * v); });
    double dot = std::inner_product(y.begin(), y.end(), x, 0.0);
    double prod = std::accumulate(y.begin(), y.end(), 1.0,
                                  [](double acc, double v) { return acc * (1.0 + v * v); });
    return dot + prod;
}
double objective(double *x) { return algo_loss(x); }
void gradient(double *x, double *g) { __enzyme_autodiff((void *)algo_loss, enzyme_dup, x, g); }
