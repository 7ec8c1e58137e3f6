/* While loops whose trip counts depend on active data (range reduction, series to tolerance). */
#define N 3
static double X0[N] = {7.3, 0.6, 2.2};
#include "harness.h"

static double reduce(double t) {            /* derivative 1 however many subtractions run */
    while (t > 1.0) t -= 0.75;
    return t;
}
static double series_exp(double v) {         /* terms until they are tiny */
    double term = 1.0, sum = 1.0;
    int k = 1;
    while (fabs(term) > 1e-15 * fabs(sum)) { term *= v / k; sum += term; k++; }
    return sum;
}

double driver(const double *x) {
    double r = reduce(x[0]);
    return r * r * x[1] + series_exp(x[1] * x[2]) + reduce(x[2] * x[2]) * 0.5;
}
double objective(double *x) { return driver(x); }
void gradient(double *x, double *g) { __enzyme_autodiff((void *)driver, x, g); }
