/* Matrix rows reached through double ** (an array of row pointers into the active input). */
#define N 9
static double X0[N] = {2.0, 0.3, -0.5, 0.4, 1.5, 0.2, -0.1, 0.6, 1.8};
#include "harness.h"

static double quad_form(double **rows, int n, const double *v) {
    double s = 0.0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) s += v[i] * rows[i][j] * v[j];
    return s;
}
double rowwise(double *a, int n) {
    double *rows[3];
    for (int i = 0; i < n; i++) rows[i] = a + i * n;
    const double v[3] = {1.0, -0.5, 2.0};
    double trace = 0.0;
    for (int i = 0; i < n; i++) trace += rows[i][i] * rows[i][i];
    return quad_form(rows, n, v) + trace;
}
double objective(double *x) { return rowwise(x, 3); }
void gradient(double *x, double *g) {
    __enzyme_autodiff((void *)rowwise, enzyme_dup, x, g, enzyme_const, 3);
}
