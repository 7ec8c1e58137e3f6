/* Explicit Euler steps of a 2-D heat equation (5-point stencil) on a small grid with a source. */
#define N 6
static double X0[N] = {0.12, 0.9, 0.35, 1.4, 0.6, 0.25};   /* diffusivity, source, 4 boundary temps */
#include "harness.h"

#define G 6
double heat(const double *p, int steps) {
    double u[G][G], v[G][G];
    for (int i = 0; i < G; i++)
        for (int j = 0; j < G; j++) u[i][j] = 0.1 * ((i * 7 + j * 3) % 5);
    for (int s = 0; s < steps; s++) {
        for (int i = 0; i < G; i++) { u[i][0] = p[2]; u[i][G - 1] = p[3]; }
        for (int j = 1; j < G - 1; j++) { u[0][j] = p[4]; u[G - 1][j] = p[5]; }
        for (int i = 1; i < G - 1; i++)
            for (int j = 1; j < G - 1; j++) {
                double lap = u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1] - 4.0 * u[i][j];
                v[i][j] = u[i][j] + p[0] * lap + 0.05 * p[1] * u[i][j] * (1.0 - u[i][j]);
            }
        for (int i = 1; i < G - 1; i++)
            for (int j = 1; j < G - 1; j++) u[i][j] = v[i][j];
    }
    double e = 0.0;
    for (int i = 1; i < G - 1; i++)
        for (int j = 1; j < G - 1; j++) e += u[i][j] * u[i][j] * (1 + i + j);
    return e;
}
double objective(double *x) { return heat(x, 12); }
void gradient(double *x, double *g) {
    __enzyme_autodiff((void *)heat, enzyme_dup, x, g, enzyme_const, 12);
}
