/* Cholesky factorization of an SPD matrix built from the input, then forward/back substitution. */
#define N 6
static double X0[N] = {1.2, 0.3, -0.4, 0.9, 0.5, 1.1};   /* lower-triangular factor entries */
#include "harness.h"

#define M 3
double chol_solve(const double *p) {
    double l0[M][M] = {{0}}, a[M][M], l[M][M] = {{0}};
    int k = 0;
    for (int i = 0; i < M; i++)
        for (int j = 0; j <= i; j++) l0[i][j] = p[k++];
    for (int i = 0; i < M; i++)          /* A = L0 L0^T + I */
        for (int j = 0; j < M; j++) {
            double s = i == j ? 1.0 : 0.0;
            for (int q = 0; q < M; q++) s += l0[i][q] * l0[j][q];
            a[i][j] = s;
        }
    for (int j = 0; j < M; j++) {
        double d = a[j][j];
        for (int q = 0; q < j; q++) d -= l[j][q] * l[j][q];
        l[j][j] = sqrt(d);
        for (int i = j + 1; i < M; i++) {
            double s = a[i][j];
            for (int q = 0; q < j; q++) s -= l[i][q] * l[j][q];
            l[i][j] = s / l[j][j];
        }
    }
    const double b[M] = {1.0, -2.0, 0.5};
    double y[M], x[M];
    for (int i = 0; i < M; i++) {
        double s = b[i];
        for (int q = 0; q < i; q++) s -= l[i][q] * y[q];
        y[i] = s / l[i][i];
    }
    for (int i = M - 1; i >= 0; i--) {
        double s = y[i];
        for (int q = i + 1; q < M; q++) s -= l[q][i] * x[q];
        x[i] = s / l[i][i];
    }
    return x[0] + 2.0 * x[1] * x[1] - x[2];
}
double objective(double *x) { return chol_solve(x); }
void gradient(double *x, double *g) { __enzyme_autodiff((void *)chol_solve, x, g); }
