/* Gaussian elimination with partial pivoting (data-dependent row swaps) solving A x = b. */
#define N 9
static double X0[N] = {0.3, 2.0, -1.0, 1.5, 0.4, 0.8, -0.7, 1.1, 2.5};
#include "harness.h"

double lu_solve(const double *p, int n) {
    double a[3][4];
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++) a[i][j] = p[i * n + j];
        a[i][n] = i + 1.0;
    }
    for (int c = 0; c < n; c++) {
        int piv = c;
        for (int r = c + 1; r < n; r++)
            if (fabs(a[r][c]) > fabs(a[piv][c])) piv = r;
        if (piv != c)
            for (int j = 0; j <= n; j++) { double t = a[c][j]; a[c][j] = a[piv][j]; a[piv][j] = t; }
        for (int r = c + 1; r < n; r++) {
            double f = a[r][c] / a[c][c];
            for (int j = c; j <= n; j++) a[r][j] -= f * a[c][j];
        }
    }
    double x[3];
    for (int i = n - 1; i >= 0; i--) {
        double s = a[i][n];
        for (int j = i + 1; j < n; j++) s -= a[i][j] * x[j];
        x[i] = s / a[i][i];
    }
    return x[0] * x[0] + x[1] - 0.5 * x[2];
}
double objective(double *x) { return lu_solve(x, 3); }
void gradient(double *x, double *g) {
    __enzyme_autodiff((void *)lu_solve, enzyme_dup, x, g, enzyme_const, 3);
}
