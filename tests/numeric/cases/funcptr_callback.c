/* A quadrature routine taking the integrand as a function pointer, called with a known function. */
#define N 3
static double X0[N] = {1.4, 0.6, 2.1};
#include "harness.h"

typedef double (*integrand)(double t, const double *p);
static double gauss_bump(double t, const double *p) { return p[0] * exp(-p[1] * t * t) + p[2] * t; }

static double simpson(integrand f, const double *p, double a, double b, int m) {
    double h = (b - a) / m, s = f(a, p) + f(b, p);
    for (int i = 1; i < m; i++) s += (i % 2 ? 4.0 : 2.0) * f(a + i * h, p);
    return s * h / 3.0;
}
double area(const double *p) { return simpson(gauss_bump, p, -1.0, 2.0, 20); }
double objective(double *x) { return area(x); }
void gradient(double *x, double *g) { __enzyme_autodiff((void *)area, x, g); }
