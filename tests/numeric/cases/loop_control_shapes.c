/* Loop shapes the reverse sweep walks back without taping its way: exits into a block also
 * reached from elsewhere, breaks next to the normal exit, continue (two back edges), down-counting
 * and narrow induction variables, if-then and if-else inside loops, and loop-invariant active
 * values (computed before a loop, used in every iteration). */
#define N 9
static double X0[N] = {0.7, -1.1, 0.45, 1.6, -0.35, 0.95, 1.25, -0.6, 0.3};
#include "harness.h"

static double shared_exit(const double *x, int n, double limit) {
    double s = 0.0;
    int i = 0;
    if (x[0] > 5.0) goto done;            /* the block after the loop has another predecessor */
    for (; i < n; i++) {
        if (s > limit) goto done;
        s += x[i] * x[(i + 2) % n];
    }
    s *= 1.5;
done:
    return s + i * 0.01 * x[1];
}

static double with_continue(const double *x, int n) {
    double s = 0.0;
    for (int i = 0; i < n; i++) {
        if (x[i] < 0.0) { s -= 0.5 * x[i]; continue; }
        if (x[i] > 1.5) { s += sqrt(x[i]); continue; }
        s += x[i] * x[i] * (i + 1);
    }
    return s;
}

static double down_and_narrow(const double *x, int n) {
    double s = 0.0;
    for (int i = n - 1; i >= 0; i -= 2)
        s = s * 0.9 + x[i] * cos(x[i]);
    for (unsigned char k = 0; k < (unsigned char)n; k++)
        s += x[k] * x[n - 1 - k] * 0.25;
    short j = (short)n;
    do {
        j -= 3;
        s += exp(0.1 * x[j < 0 ? 0 : j]);
    } while (j > 0);
    return s;
}

static double invariant_inside(const double *x, int n) {
    double scale = x[0] * x[1];           /* active, defined outside both loops */
    double shift = x[2] > 0.0 ? sin(x[2]) : x[2] * x[2];
    double s = 0.0;
    for (int i = 0; i < n; i++) {
        double row = x[i] + shift;
        for (int j = 0; j <= i; j++) {
            double t = scale * x[j] - row;
            s += (t > 0.0) ? t * t : 0.5 * t;     /* if-else diamond inside the inner loop */
            if (j == i - 1) s += 0.1 * row * scale;   /* if-then triangle */
        }
    }
    return s;
}

double shapes(const double *x, int n) {
    return shared_exit(x, n, 3.0) + with_continue(x, n) + down_and_narrow(x, n)
           + 0.01 * invariant_inside(x, n);
}
double objective(double *x) { return shapes(x, N); }
void gradient(double *x, double *g) {
    __enzyme_autodiff((void *)shapes, enzyme_dup, x, g, enzyme_const, N);
}
