#include "heat.h"

#include <stdlib.h>
#include <string.h>

static inline size_t cell(const struct heat_plate *p, int i, int j)
{
    return (size_t)j * (size_t)p->nx + (size_t)i;
}

struct heat_plate *heat_create(int nx, int ny, double dx, double courant, const struct material *mat)
{
    struct heat_plate *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->nx = nx;
    p->ny = ny;
    p->dx = dx;
    p->mat = mat;
    p->alpha = material_diffusivity(mat);
    if (courant <= 0.0 || courant >= 0.25)
        courant = 0.2;
    p->dt = courant * dx * dx / p->alpha;
    p->u = calloc((size_t)nx * (size_t)ny, sizeof(double));
    p->next = calloc((size_t)nx * (size_t)ny, sizeof(double));
    if (!p->u || !p->next) {
        heat_destroy(p);
        return NULL;
    }
    return p;
}

void heat_destroy(struct heat_plate *p)
{
    if (!p)
        return;
    free(p->u);
    free(p->next);
    free(p);
}

void heat_set_hot_spot(struct heat_plate *p, int cx, int cy, int radius, double temperature)
{
    for (int j = 1; j < p->ny - 1; j++)
        for (int i = 1; i < p->nx - 1; i++) {
            int di = i - cx, dj = j - cy;
            if (di * di + dj * dj <= radius * radius)
                p->u[cell(p, i, j)] = temperature;
        }
}

void heat_advance(struct heat_plate *p, int steps)
{
    double r = p->alpha * p->dt / (p->dx * p->dx);
    for (int s = 0; s < steps; s++) {
        memcpy(p->next, p->u, (size_t)p->nx * (size_t)p->ny * sizeof(double));
        for (int j = 1; j < p->ny - 1; j++)
            for (int i = 1; i < p->nx - 1; i++) {
                double c = p->u[cell(p, i, j)];
                double lap = p->u[cell(p, i - 1, j)] + p->u[cell(p, i + 1, j)] +
                             p->u[cell(p, i, j - 1)] + p->u[cell(p, i, j + 1)] - 4.0 * c;
                p->next[cell(p, i, j)] = c + r * lap;
            }
        double *t = p->u;
        p->u = p->next;
        p->next = t;
        p->steps_taken++;
    }
}

double heat_total(const struct heat_plate *p)
{
    double s = 0.0;
    for (size_t k = 0; k < (size_t)p->nx * (size_t)p->ny; k++)
        s += p->u[k];
    return s * p->dx * p->dx * p->mat->density * p->mat->heat_capacity;
}

double heat_value(const struct heat_plate *p, int i, int j)
{
    return p->u[cell(p, i, j)];
}
