#include <stdlib.h>
#include <string.h>
#include <math.h>
#include "model.h"

void rod_init(struct rod *r, int cells, int steps, double dt) {
    r->cells = cells;
    r->steps = steps;
    r->dt = dt;
    r->temperature = malloc(sizeof(double) * cells);
    for (int i = 0; i < cells; i++)
        r->temperature[i] = exp(-0.5 * (i - cells / 2.0) * (i - cells / 2.0) / 4.0);
}

void rod_free(struct rod *r) { free(r->temperature); }

static void step(double *next, const double *t, const double *k, int n, double dt) {
    for (int i = 0; i < n; i++) {
        double left = i > 0 ? t[i - 1] : t[i];
        double right = i < n - 1 ? t[i + 1] : t[i];
        next[i] = t[i] + dt * k[i] * (left - 2.0 * t[i] + right);
    }
}

void rod_simulate(struct rod *r, const double *conductivity) {
    double *next = malloc(sizeof(double) * r->cells);
    for (int s = 0; s < r->steps; s++) {
        step(next, r->temperature, conductivity, r->cells, r->dt);
        memcpy(r->temperature, next, sizeof(double) * r->cells);
    }
    free(next);
}
