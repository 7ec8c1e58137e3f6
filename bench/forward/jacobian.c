/* Forward-mode Jacobian timing: the gradient of f (n inputs) built from n scalar
 * __enzyme_fwddiff calls, from n/4 calls of width 4 and from n/8 calls of width 8.
 * Prints "scalar S", "width4 S", "width8 S" (best of REPEAT, seconds) and the largest
 * difference between the three Jacobians. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define N 64
#define REPEAT 20
extern int enzyme_dup, enzyme_dupv, enzyme_const, enzyme_width;
double __enzyme_fwddiff(void *, ...);
struct four { double d[4]; };
struct eight { double d[8]; };
struct four __enzyme_fwddiff4(void *, ...) __asm__("__enzyme_fwddiff.four");
struct eight __enzyme_fwddiff8(void *, ...) __asm__("__enzyme_fwddiff.eight");

double f(const double *x, int n) {
    double s = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) s += sin(x[i] - x[j]) * exp(-0.01 * x[i] * x[j]);
    return s;
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}

static double V[8][N];

static void directions(int base, int width) {
    for (int k = 0; k < width; k++)
        for (int i = 0; i < N; i++) V[k][i] = (i == base + k);
}

static void scalar(const double *x, double *g) {
    for (int i = 0; i < N; i++) {
        directions(i, 1);
        g[i] = __enzyme_fwddiff((void *)f, enzyme_dup, x, V[0], enzyme_const, N);
    }
}

static void width4(const double *x, double *g) {
    for (int i = 0; i < N; i += 4) {
        directions(i, 4);
        struct four t = __enzyme_fwddiff4((void *)f, enzyme_width, 4, enzyme_dupv,
                                          sizeof(double) * N, x, V[0], enzyme_const, N);
        for (int k = 0; k < 4; k++) g[i + k] = t.d[k];
    }
}

static void width8(const double *x, double *g) {
    for (int i = 0; i < N; i += 8) {
        directions(i, 8);
        struct eight t = __enzyme_fwddiff8((void *)f, enzyme_width, 8, enzyme_dupv,
                                           sizeof(double) * N, x, V[0], enzyme_const, N);
        for (int k = 0; k < 8; k++) g[i + k] = t.d[k];
    }
}

static double best(void (*run)(const double *, double *), const double *x, double *g) {
    double fastest = 1e30;
    for (int r = 0; r < REPEAT; r++) {
        double start = now();
        run(x, g);
        double took = now() - start;
        if (took < fastest) fastest = took;
    }
    return fastest;
}

int main(void) {
    double x[N], g1[N], g4[N], g8[N], diff = 0;
    for (int i = 0; i < N; i++) x[i] = 0.05 * i - 1.0;
    printf("scalar %.6e\n", best(scalar, x, g1));
    printf("width4 %.6e\n", best(width4, x, g4));
    printf("width8 %.6e\n", best(width8, x, g8));
    for (int i = 0; i < N; i++) diff = fmax(diff, fmax(fabs(g1[i] - g4[i]), fabs(g1[i] - g8[i])));
    printf("maxdiff %.3e\n", diff);
    return 0;
}
