#ifndef NUM_ODE_H
#define NUM_ODE_H

/* Right-hand side dy/dt = f(t, y); ctx carries the model parameters. */
typedef void (*ode_rhs)(double t, const double *y, double *dydt, void *ctx);

struct ode_system {
    int dim;
    ode_rhs rhs;
    void *ctx;
};

struct ode_trace {
    int samples;
    double *t;
    double *y; /* samples x dim, row-major */
};

/* Classic fourth-order Runge-Kutta with a fixed step. y holds the initial state on entry and
   the final state on return. When trace is non-NULL, every_n-th state is recorded. */
int rk4_integrate(const struct ode_system *sys, double t0, double t1, int steps, double *y,
                  int every_n, struct ode_trace *trace);
void ode_trace_free(struct ode_trace *trace);

#endif
