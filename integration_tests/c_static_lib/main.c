/* Driver for libnum: a linear solve, two ODE models, a heat-diffusion run and statistics.
   Usage: heatsim [grid_nx grid_ny steps] */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "heat.h"
#include "linalg.h"
#include "materials.h"
#include "ode.h"
#include "stats.h"

struct predator_prey {
    double alpha, beta, gamma, delta;
};

static void lotka_volterra(double t, const double *y, double *dydt, void *ctx)
{
    const struct predator_prey *p = ctx;
    (void)t;
    dydt[0] = p->alpha * y[0] - p->beta * y[0] * y[1];
    dydt[1] = p->delta * y[0] * y[1] - p->gamma * y[1];
}

struct pendulum {
    double length;
    double damping;
    double drive_amplitude;
    double drive_frequency;
};

static void driven_pendulum(double t, const double *y, double *dydt, void *ctx)
{
    const struct pendulum *p = ctx;
    dydt[0] = y[1];
    dydt[1] = -9.80665 / p->length * sin(y[0]) - p->damping * y[1] +
              p->drive_amplitude * cos(p->drive_frequency * t);
}

struct model {
    const char *name;
    struct ode_system sys;
    double y0[2];
    double t1;
    int steps;
};

static void run_linear_system(int n)
{
    struct matrix *a = matrix_alloc(n, n);
    double *b = malloc((size_t)n * sizeof(double));
    double *x = malloc((size_t)n * sizeof(double));
    double *r = malloc((size_t)n * sizeof(double));
    int *perm = malloc((size_t)n * sizeof(int));

    /* A diagonally dominated Hilbert-like matrix with a known right-hand side. */
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++)
            *matrix_at(a, i, j) = 1.0 / (i + j + 1.0) + (i == j ? 0.5 * (i + 1) : 0.0);
        b[i] = sin(0.3 * (i + 1)) + 1.0;
    }
    struct matrix *lu = matrix_copy(a);
    if (lu_decompose(lu, perm) != 0) {
        printf("linear: singular\n");
    } else {
        lu_solve(lu, perm, b, x);
        matrix_mul_vec(a, x, r);
        for (int i = 0; i < n; i++)
            r[i] -= b[i];
        printf("linear: n=%d det=%.17g residual=%.17g\n", n, lu_determinant(lu, perm), vec_norm2(r, n));
        for (int i = 0; i < n; i++)
            printf("linear: x[%d]=%.17g perm=%d\n", i, x[i], perm[i]);
    }
    matrix_free(lu);
    matrix_free(a);
    free(b);
    free(x);
    free(r);
    free(perm);
}

static void run_models(void)
{
    struct predator_prey lv = {1.1, 0.4, 0.4, 0.1};
    struct pendulum pd = {1.5, 0.25, 1.2, 2.0 / 3.0};
    struct model models[] = {
        {"lotka-volterra", {2, lotka_volterra, &lv}, {10.0, 10.0}, 30.0, 3000},
        {"pendulum", {2, driven_pendulum, &pd}, {0.2, 0.0}, 20.0, 4000},
    };
    for (size_t m = 0; m < sizeof models / sizeof models[0]; m++) {
        double y[2] = {models[m].y0[0], models[m].y0[1]};
        struct ode_trace trace;
        if (rk4_integrate(&models[m].sys, 0.0, models[m].t1, models[m].steps, y, 500, &trace) != 0) {
            printf("ode: %s failed\n", models[m].name);
            continue;
        }
        for (int s = 0; s < trace.samples; s++)
            printf("ode: %s t=%.17g y=(%.17g, %.17g)\n", models[m].name, trace.t[s], trace.y[2 * s],
                   trace.y[2 * s + 1]);
        printf("ode: %s final=(%.17g, %.17g)\n", models[m].name, y[0], y[1]);
        ode_trace_free(&trace);
    }
}

static void run_heat(int nx, int ny, int steps)
{
    for (int k = 0; k < material_count; k++) {
        const struct material *mat = &material_table[k];
        printf("material: %s diffusivity=%.17g\n", mat->name, material_diffusivity(mat));
    }
    const char *names[] = {"copper", "granite"};
    const double courant[] = {0.2, 0.245};
    for (int k = 0; k < 2; k++) {
        const struct material *mat = material_find(names[k]);
        struct heat_plate *p = heat_create(nx, ny, 0.01, courant[k], mat);
        heat_set_hot_spot(p, nx / 3, ny / 2, ny / 5, 400.0);
        double before = heat_total(p);
        heat_advance(p, steps);
        printf("heat: %s dt=%.17g energy_before=%.17g energy_after=%.17g\n", mat->name, p->dt, before,
               heat_total(p));
        printf("heat: %s centre=%.17g probe=%.17g steps=%ld\n", mat->name, heat_value(p, nx / 2, ny / 2),
               heat_value(p, nx / 3 + 2, ny / 2 - 1), p->steps_taken);

        struct running_stats st;
        stats_init(&st);
        for (int j = 0; j < ny; j++)
            for (int i = 0; i < nx; i++)
                stats_push(&st, heat_value(p, i, j));
        printf("heat: %s mean=%.17g stddev=%.17g min=%.17g max=%.17g median=%.17g\n", mat->name, st.mean,
               stats_stddev(&st), st.min, st.max, stats_median(p->u, nx * ny));
        heat_destroy(p);
    }
}

static void run_sampling(int n)
{
    struct lcg g = {42};
    double *x = malloc((size_t)n * sizeof(double));
    struct running_stats st;
    stats_init(&st);
    for (int i = 0; i < n; i++) {
        x[i] = 3.0 + 2.0 * lcg_normal(&g);
        stats_push(&st, x[i]);
    }
    int counts[12];
    stats_histogram(x, n, -3.0, 9.0, 12, counts);
    printf("sample: n=%ld mean=%.17g variance=%.17g median=%.17g\n", st.n, st.mean, stats_variance(&st),
           stats_median(x, n));
    for (int b = 0; b < 12; b++)
        printf("sample: bin %d [%g, %g) %d\n", b, -3.0 + b, -2.0 + b, counts[b]);
    free(x);
}

int main(int argc, char **argv)
{
    int nx = 40, ny = 28, steps = 300;
    if (argc == 4) {
        nx = atoi(argv[1]);
        ny = atoi(argv[2]);
        steps = atoi(argv[3]);
    } else if (argc != 1) {
        fprintf(stderr, "usage: %s [nx ny steps]\n", argv[0]);
        return 2;
    }
    run_linear_system(7);
    run_models();
    run_heat(nx, ny, steps);
    run_sampling(5000);
    return 0;
}
