#ifndef KIN_INTERNAL_H
#define KIN_INTERNAL_H

/* Shared between the library's translation units, never exported from libkinetics.so. */
__attribute__((visibility("hidden"))) double kin_safe_exp(double x);
double kin_step_exact(double kf, double kr, double dt, double *a, double *b);

#endif
