/* Whole-struct assignment of doubles (lowered to memcpy or integer loads) inside the objective. */
#define N 6
static double X0[N] = {0.5, 1.5, -0.5, 0.25, 1.25, -1.0};
#include "harness.h"

struct vec3 { double x, y, z; };

static struct vec3 cross(struct vec3 a, struct vec3 b) {
    struct vec3 c = {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
    return c;
}
double triple(const double *p) {
    struct vec3 v[3];
    struct vec3 a = {p[0], p[1], p[2]}, b = {p[3], p[4], p[5]};
    v[0] = a;
    v[1] = b;
    v[2] = cross(v[0], v[1]);
    struct vec3 w = v[2];                 /* struct copy */
    v[0] = v[1];                          /* overwrite with another copy */
    return w.x * w.x + w.y * w.y + w.z * w.z + v[0].x * w.z;
}
double objective(double *x) { return triple(x); }
void gradient(double *x, double *g) { __enzyme_autodiff((void *)triple, x, g); }
