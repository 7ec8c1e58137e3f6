// std::vector<double> built, grown and reduced inside the objective (operator new/delete).
#include <vector>
#define N 5
static double X0[N] = {0.4, -0.9, 1.2, 0.7, -0.3};
#include "harness.h"

double vector_loss(const double *x, int n) {
    std::vector<double> diffs;
    for (int i = 0; i + 1 < n; i++) diffs.push_back(x[i + 1] - x[i]);
    std::vector<double> squares(diffs.size());
    for (size_t i = 0; i < diffs.size(); i++) squares[i] = diffs[i] * diffs[i];
    double s = 0.0;
    for (double v : squares) s += v;
    return s + diffs.front() * diffs.back();
}
double objective(double *x) { return vector_loss(x, N); }
void gradient(double *x, double *g) {
    __enzyme_autodiff((void *)vector_loss, enzyme_dup, x, g, enzyme_const, N);
}
