/* Vector max/min reductions (llvm.vector.reduce.fmax/fmin), lane shuffles and lane sums. */
#define N 4
static double X0[N] = {0.9, -0.4, 1.3, 0.25};
#include "harness.h"

typedef double v4 __attribute__((ext_vector_type(4)));

double reductions(const double *x) {
    v4 v = {x[0], x[1], x[2], x[3]};
    v4 w = v * v + (v4){0.5, 0.5, 0.5, 0.5};
    v4 r = __builtin_shufflevector(v, w, 3, 4, 1, 6);
    return w.x + w.y * r.z + r.x * r.w + 2.0 * __builtin_reduce_max(v) - __builtin_reduce_min(w * v);
}
double objective(double *x) { return reductions(x); }
void gradient(double *x, double *g) { __enzyme_autodiff((void *)reductions, enzyme_dup, x, g); }
