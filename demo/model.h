/* A 1-D heat rod: explicit finite differences with per-cell conductivities. */
#ifndef DEMO_MODEL_H
#define DEMO_MODEL_H

struct rod {
    int cells;
    int steps;
    double dt;
    double *temperature;   /* current state, `cells` values */
};

void rod_init(struct rod *r, int cells, int steps, double dt);
void rod_free(struct rod *r);
void rod_simulate(struct rod *r, const double *conductivity);
double misfit(const struct rod *r, const double *observed);
double calibration_loss(const double *conductivity, const double *observed,
                        int cells, int steps, double dt);

#endif
