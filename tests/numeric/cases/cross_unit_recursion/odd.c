/* Odd levels of the continued fraction; recurses into even.c. */
#include <math.h>
double cf_even(const double *x, int depth);
double cf_odd(const double *x, int depth) {
    if (depth == 0) return x[2];
    return sqrt(x[2]) + x[0] * x[1] / (2.0 + cf_even(x, depth - 1));
}
