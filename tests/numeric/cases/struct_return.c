/* Structs of doubles returned by value from calls that stay calls (noinline): {double, double} and larger. */
#define N 4
static double X0[N] = {0.6, -0.4, 1.3, 0.8};
#include "harness.h"

struct pair { double a, b; };
struct quad { double v[4]; };

__attribute__((noinline)) static struct pair polar(double r, double t) {
    struct pair p = {r * cos(t), r * sin(t)};
    return p;
}
__attribute__((noinline)) static struct quad outer(struct pair p, struct pair q) {
    struct quad m = {{p.a * q.a, p.a * q.b, p.b * q.a, p.b * q.b}};
    return m;
}
double returned(const double *x) {
    struct pair p = polar(x[0], x[1]), q = polar(x[2], x[3]);
    struct quad m = outer(p, q);
    return m.v[0] + 2.0 * m.v[1] - m.v[2] * m.v[3];
}
double objective(double *x) { return returned(x); }
void gradient(double *x, double *g) { __enzyme_autodiff((void *)returned, x, g); }
