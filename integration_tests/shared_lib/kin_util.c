#include <math.h>

#include "kin_internal.h"

__attribute__((visibility("hidden"))) double kin_safe_exp(double x)
{
    if (x < -700.0)
        return 0.0;
    if (x > 700.0)
        x = 700.0;
    return exp(x);
}

/* Exact solution of the linear system a' = -kf a + kr b, b' = kf a - kr b over one step. */
double kin_step_exact(double kf, double kr, double dt, double *a, double *b)
{
    double total = *a + *b;
    double k = kf + kr;
    double a_eq = total * kr / k;
    double decay = kin_safe_exp(-k * dt);
    *a = a_eq + (*a - a_eq) * decay;
    *b = total - *a;
    return decay;
}
