/* Energy of one spring, reading the struct through a pointer. */
#include <math.h>
#include "spring.h"
double spring_energy(const struct spring *s, const double *pos) {
    double d = pos[s->to] - pos[s->from];
    double stretch = sqrt(d * d + 0.01) - s->rest;
    return 0.5 * s->stiffness * stretch * stretch;
}
