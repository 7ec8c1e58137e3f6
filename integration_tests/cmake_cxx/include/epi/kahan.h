#ifndef EPI_KAHAN_H
#define EPI_KAHAN_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Compensated (Kahan-Babuska) summation. */
double kahan_sum(const double *x, size_t n);

#ifdef __cplusplus
}
#endif

#endif
