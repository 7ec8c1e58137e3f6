/* Scratch buffers rewritten in every iteration of an outer loop and read in inner loops (the
 * reverse needs each iteration's old contents), with the loop bounds read from memory. */
#include <stdlib.h>
#define N 8
static double X0[N] = {0.3, -0.8, 1.2, 0.55, -0.25, 0.9, 1.4, -1.05};
#include "harness.h"

struct shape { int rows, cols; };

static double rows_energy(const double *x, const struct shape *sh) {
    double *scratch = malloc(sizeof(double) * sh->cols);
    double *squared = malloc(sizeof(double) * sh->cols);
    double total = 0.0;
    for (int r = 0; r < sh->rows; r++) {
        for (int c = 0; c < sh->cols; c++)
            scratch[c] = x[(r + c) % N] - x[(r * 3 + c) % N];
        for (int c = 0; c < sh->cols; c++) {
            squared[c] = scratch[c] * scratch[c];
            for (int k = c + 1; k < sh->cols; k++)
                squared[c] += 0.5 * scratch[k] * scratch[c];
        }
        double m = squared[0];
        for (int c = 1; c < sh->cols; c++)
            if (squared[c] > m) m = squared[c];
        double e = 0.0;
        for (int c = 0; c < sh->cols; c++) e += exp(squared[c] - m);
        total += log(e) + m;
    }
    free(squared);
    free(scratch);
    return total;
}

double energy(const double *x) {
    struct shape sh = {5, 6};
    return rows_energy(x, &sh);
}
double objective(double *x) { return energy(x); }
void gradient(double *x, double *g) { __enzyme_autodiff((void *)energy, enzyme_dup, x, g); }
