/* A double ** argument passed as enzyme_dup with a matching array of shadow row pointers. */
#define N 6
static double X0[N] = {0.8, -0.3, 1.2, 0.5, 0.9, -1.1};
#include "harness.h"

double rows_energy(double **rows, int nrows, int ncols) {
    double e = 0.0;
    for (int i = 0; i < nrows; i++) {
        double r = 0.0;
        for (int j = 0; j < ncols; j++) r += rows[i][j] * (j + 1);
        e += r * r + exp(rows[i][0] * 0.5);
    }
    return e;
}
double objective(double *x) {
    double *rows[2] = {x, x + 3};
    return rows_energy(rows, 2, 3);
}
void gradient(double *x, double *g) {
    double *rows[2] = {x, x + 3}, *drows[2] = {g, g + 3};
    __enzyme_autodiff((void *)rows_energy, enzyme_dup, rows, drows, enzyme_const, 2, enzyme_const, 3);
}
