#include "ode.h"

#include <stdlib.h>
#include <string.h>

struct rk4_work {
    double *k1, *k2, *k3, *k4, *tmp;
};

static void rk4_step(const struct ode_system *sys, struct rk4_work *w, double t, double h, double *y)
{
    int n = sys->dim;
    sys->rhs(t, y, w->k1, sys->ctx);
    for (int i = 0; i < n; i++)
        w->tmp[i] = y[i] + 0.5 * h * w->k1[i];
    sys->rhs(t + 0.5 * h, w->tmp, w->k2, sys->ctx);
    for (int i = 0; i < n; i++)
        w->tmp[i] = y[i] + 0.5 * h * w->k2[i];
    sys->rhs(t + 0.5 * h, w->tmp, w->k3, sys->ctx);
    for (int i = 0; i < n; i++)
        w->tmp[i] = y[i] + h * w->k3[i];
    sys->rhs(t + h, w->tmp, w->k4, sys->ctx);
    for (int i = 0; i < n; i++)
        y[i] += h / 6.0 * (w->k1[i] + 2.0 * w->k2[i] + 2.0 * w->k3[i] + w->k4[i]);
}

int rk4_integrate(const struct ode_system *sys, double t0, double t1, int steps, double *y,
                  int every_n, struct ode_trace *trace)
{
    int n = sys->dim;
    double *block = malloc(5 * (size_t)n * sizeof(double));
    if (!block)
        return -1;
    struct rk4_work w = {block, block + n, block + 2 * n, block + 3 * n, block + 4 * n};

    if (trace) {
        trace->samples = 0;
        int cap = steps / every_n + 2;
        trace->t = malloc((size_t)cap * sizeof(double));
        trace->y = malloc((size_t)cap * (size_t)n * sizeof(double));
        if (!trace->t || !trace->y) {
            free(block);
            ode_trace_free(trace);
            return -1;
        }
    }

    double h = (t1 - t0) / steps;
    for (int s = 0; s <= steps; s++) {
        double t = t0 + s * h;
        if (trace && s % every_n == 0) {
            trace->t[trace->samples] = t;
            memcpy(&trace->y[(size_t)trace->samples * (size_t)n], y, (size_t)n * sizeof(double));
            trace->samples++;
        }
        if (s < steps)
            rk4_step(sys, &w, t, h, y);
    }
    free(block);
    return 0;
}

void ode_trace_free(struct ode_trace *trace)
{
    free(trace->t);
    free(trace->y);
    trace->t = NULL;
    trace->y = NULL;
    trace->samples = 0;
}
