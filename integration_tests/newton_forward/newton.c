/* Newton's method: Jacobian columns J e_j from forward-mode derivatives of the residual,
 * LU with partial pivoting, full steps until ||F|| < tol. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "newton.h"

extern int enzyme_dup, enzyme_const;
/* Both residuals return void and write F(x) through r, so the tangent comes back only in the
 * shadow of r. Built with -DFWDDIFF_RETURNS_DOUBLE the call is declared the usual way,
 * returning double (0.0 for a void function). */
#ifdef FWDDIFF_RETURNS_DOUBLE
double __enzyme_fwddiff(void *, ...);
#else
void __enzyme_fwddiff(void *, ...);
#endif

/* The tangent of r = F(x) along v lands in the shadow of r. One function per residual, each
 * naming its residual in the __enzyme_fwddiff call: two calls in the branches of one switch
 * would be merged by clang at -O1 and above into a single call on a select of the two
 * functions, which is not a function known at link time. */
void rd_tangent(const double *x, const double *v, double *r, double *jv, const void *p, int n)
{
    memset(jv, 0, (size_t)n * sizeof *jv);
    __enzyme_fwddiff((void *)rd_residual, enzyme_dup, x, v, enzyme_dup, r, jv, enzyme_const, p, enzyme_const, n);
}

void eq_tangent(const double *x, const double *v, double *r, double *jv, const void *p, int n)
{
    memset(jv, 0, (size_t)n * sizeof *jv);
    __enzyme_fwddiff((void *)eq_residual, enzyme_dup, x, v, enzyme_dup, r, jv, enzyme_const, p, enzyme_const, n);
}

/* Row-major n x n Jacobian, one forward-mode sweep per unit vector. */
void jacobian_forward(const struct system *sys, const double *x, double *jac)
{
    int n = sys->n;
    double *unit = calloc((size_t)n, sizeof *unit);
    double *r = malloc((size_t)n * sizeof *r);
    double *column = malloc((size_t)n * sizeof *column);
    for (int j = 0; j < n; j++) {
        unit[j] = 1.0;
        sys->tangent(x, unit, r, column, sys->params, n);
        unit[j] = 0.0;
        for (int i = 0; i < n; i++)
            jac[i * n + j] = column[i];
    }
    free(column);
    free(r);
    free(unit);
}

/* Central differences (F(x + h e_j) - F(x - h e_j)) / 2h, column by column. */
void jacobian_central(const struct system *sys, const double *x, double step, double *jac)
{
    int n = sys->n;
    double *xs = malloc((size_t)n * sizeof *xs);
    double *plus = malloc((size_t)n * sizeof *plus);
    double *minus = malloc((size_t)n * sizeof *minus);
    memcpy(xs, x, (size_t)n * sizeof *xs);
    for (int j = 0; j < n; j++) {
        xs[j] = x[j] + step;
        sys->residual(xs, plus, sys->params, n);
        xs[j] = x[j] - step;
        sys->residual(xs, minus, sys->params, n);
        xs[j] = x[j];
        for (int i = 0; i < n; i++)
            jac[i * n + j] = (plus[i] - minus[i]) / (2.0 * step);
    }
    free(minus);
    free(plus);
    free(xs);
}

/* In-place LU with partial pivoting (row-major); returns 0, or -1 for a zero pivot. */
int lu_factor(double *a, int *piv, int n)
{
    for (int k = 0; k < n; k++) {
        int p = k;
        for (int i = k + 1; i < n; i++)
            if (fabs(a[i * n + k]) > fabs(a[p * n + k]))
                p = i;
        piv[k] = p;
        if (a[p * n + k] == 0.0)
            return -1;
        if (p != k)
            for (int j = 0; j < n; j++) {
                double t = a[k * n + j];
                a[k * n + j] = a[p * n + j];
                a[p * n + j] = t;
            }
        for (int i = k + 1; i < n; i++) {
            double m = a[i * n + k] / a[k * n + k];
            a[i * n + k] = m;
            for (int j = k + 1; j < n; j++)
                a[i * n + j] -= m * a[k * n + j];
        }
    }
    return 0;
}

void lu_solve(const double *lu, const int *piv, double *b, int n)
{
    for (int k = 0; k < n; k++) {
        double t = b[k];
        b[k] = b[piv[k]];
        b[piv[k]] = t;
    }
    for (int i = 1; i < n; i++)
        for (int j = 0; j < i; j++)
            b[i] -= lu[i * n + j] * b[j];
    for (int i = n - 1; i >= 0; i--) {
        for (int j = i + 1; j < n; j++)
            b[i] -= lu[i * n + j] * b[j];
        b[i] /= lu[i * n + i];
    }
}

double norm2(const double *v, int n)
{
    double sum = 0.0;
    for (int i = 0; i < n; i++)
        sum += v[i] * v[i];
    return sqrt(sum);
}

int newton_solve(const struct system *sys, double *x, double tol, int max_iter, struct newton_result *out)
{
    int n = sys->n;
    double *f = malloc((size_t)n * sizeof *f);
    double *jac = malloc((size_t)n * n * sizeof *jac);
    int *piv = malloc((size_t)n * sizeof *piv);
    int limit = max_iter < 63 ? max_iter : 63;

    out->converged = 0;
    out->iterations = 0;
    for (;;) {
        sys->residual(x, f, sys->params, n);
        out->norm = norm2(f, n);
        out->history[out->iterations] = out->norm;
        printf("%s: iter %d |F| = %.6e\n", sys->name, out->iterations, out->norm);
        if (!isfinite(out->norm))
            break;
        if (out->norm < tol) {
            out->converged = 1;
            break;
        }
        if (out->iterations == limit)
            break;
        jacobian_forward(sys, x, jac);
        if (lu_factor(jac, piv, n) != 0) {
            printf("%s: singular Jacobian at iteration %d\n", sys->name, out->iterations);
            break;
        }
        for (int i = 0; i < n; i++)
            f[i] = -f[i];
        lu_solve(jac, piv, f, n);
        for (int i = 0; i < n; i++)
            x[i] += f[i];
        out->iterations++;
    }
    free(piv);
    free(jac);
    free(f);
    return out->converged;
}
