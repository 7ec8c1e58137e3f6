/* Accessor functions that return pointers into a local struct holding active values. */
#define N 6
static double X0[N] = {0.5, 1.4, -0.3, 0.9, -1.2, 0.7};
#include "harness.h"

struct grid { int rows, cols; double cells[12]; };

static double *row(struct grid *g, int r) { return g->cells + r * g->cols; }
static const double *crow(const struct grid *g, int r) { return g->cells + r * g->cols; }

double accessed(const double *x) {
    struct grid g = {2, 3, {0}};
    for (int r = 0; r < g.rows; r++) {
        double *p = row(&g, r);
        for (int c = 0; c < g.cols; c++) p[c] = x[r * 3 + c] * (c + 1.0);
    }
    double s = 0.0;
    for (int r = 0; r < g.rows; r++) {
        const double *p = crow(&g, r);
        s += p[0] * p[1] + sin(p[2]);
    }
    return s;
}
double objective(double *x) { return accessed(x); }
void gradient(double *x, double *g) { __enzyme_autodiff((void *)accessed, x, g); }
