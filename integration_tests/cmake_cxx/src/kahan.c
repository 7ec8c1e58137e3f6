#include "epi/kahan.h"

#include <math.h>

double kahan_sum(const double *x, size_t n)
{
    double sum = 0.0, compensation = 0.0;
    for (size_t i = 0; i < n; i++) {
        double t = sum + x[i];
        if (fabs(sum) >= fabs(x[i]))
            compensation += (sum - t) + x[i];
        else
            compensation += (x[i] - t) + sum;
        sum = t;
    }
    return sum + compensation;
}
