/* A C kernel called from C++. */
#include <math.h>
double c_kernel(const double *x, int n) {
    double s = 0.0;
    for (int i = 0; i + 1 < n; i++) s += sin(x[i]) * x[i + 1];
    return s;
}
