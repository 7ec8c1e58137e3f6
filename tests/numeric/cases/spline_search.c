/* A piecewise-cubic (Hermite) spline with active knot values, located by binary search. */
#define N 6
static double X0[N] = {0.2, 0.9, 1.3, 0.7, 0.4, 1.1};   /* values at the knots */
#include "harness.h"

static const double knots[6] = {0.0, 0.5, 1.2, 2.0, 2.6, 3.5};
static const double queries[5] = {0.3, 1.0, 1.7, 2.3, 3.1};

static double spline(const double *y, double t) {
    int lo = 0, hi = 5;
    while (hi - lo > 1) {            /* binary search: trip count depends on t */
        int mid = (lo + hi) / 2;
        if (knots[mid] <= t) lo = mid; else hi = mid;
    }
    double h = knots[hi] - knots[lo], s = (t - knots[lo]) / h;
    double m0 = lo > 0 ? (y[hi] - y[lo - 1]) / (knots[hi] - knots[lo - 1]) : (y[hi] - y[lo]) / h;
    double m1 = hi < 5 ? (y[hi + 1] - y[lo]) / (knots[hi + 1] - knots[lo]) : (y[hi] - y[lo]) / h;
    double s2 = s * s, s3 = s2 * s;
    return (2 * s3 - 3 * s2 + 1) * y[lo] + (s3 - 2 * s2 + s) * h * m0
           + (-2 * s3 + 3 * s2) * y[hi] + (s3 - s2) * h * m1;
}
double spline_loss(const double *y) {
    double loss = 0.0;
    for (int q = 0; q < 5; q++) { double r = spline(y, queries[q]) - cos(queries[q]); loss += r * r; }
    return loss;
}
double objective(double *x) { return spline_loss(x); }
void gradient(double *x, double *g) { __enzyme_autodiff((void *)spline_loss, x, g); }
