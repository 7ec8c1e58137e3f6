#ifndef NUM_HEAT_H
#define NUM_HEAT_H

#include "materials.h"

/* Explicit finite-difference solver for u_t = alpha (u_xx + u_yy) on a plate with fixed
   (Dirichlet) edges. */
struct heat_plate {
    int nx, ny;
    double dx;
    double dt;
    double alpha;
    const struct material *mat;
    double *u;
    double *next;
    long steps_taken;
};

/* courant = alpha dt / dx^2 must stay below 0.25 for stability. */
struct heat_plate *heat_create(int nx, int ny, double dx, double courant, const struct material *mat);
void heat_destroy(struct heat_plate *p);
void heat_set_hot_spot(struct heat_plate *p, int cx, int cy, int radius, double temperature);
void heat_advance(struct heat_plate *p, int steps);
double heat_total(const struct heat_plate *p);
double heat_value(const struct heat_plate *p, int i, int j);

#endif
