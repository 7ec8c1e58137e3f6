#include "linalg.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct matrix *matrix_alloc(int rows, int cols)
{
    struct matrix *m = malloc(sizeof *m);
    if (!m)
        return NULL;
    m->rows = rows;
    m->cols = cols;
    m->data = calloc((size_t)rows * (size_t)cols, sizeof(double));
    if (!m->data) {
        free(m);
        return NULL;
    }
    return m;
}

void matrix_free(struct matrix *m)
{
    if (!m)
        return;
    free(m->data);
    free(m);
}

double *matrix_at(struct matrix *m, int i, int j)
{
    return &m->data[(size_t)i * (size_t)m->cols + (size_t)j];
}

struct matrix *matrix_copy(const struct matrix *m)
{
    struct matrix *c = matrix_alloc(m->rows, m->cols);
    if (c)
        memcpy(c->data, m->data, (size_t)m->rows * (size_t)m->cols * sizeof(double));
    return c;
}

void matrix_mul_vec(const struct matrix *m, const double *x, double *y)
{
    for (int i = 0; i < m->rows; i++) {
        double s = 0.0;
        const double *row = &m->data[(size_t)i * (size_t)m->cols];
        for (int j = 0; j < m->cols; j++)
            s += row[j] * x[j];
        y[i] = s;
    }
}

static void swap_rows(struct matrix *a, int r1, int r2)
{
    double *p = &a->data[(size_t)r1 * (size_t)a->cols];
    double *q = &a->data[(size_t)r2 * (size_t)a->cols];
    for (int j = 0; j < a->cols; j++) {
        double t = p[j];
        p[j] = q[j];
        q[j] = t;
    }
}

int lu_decompose(struct matrix *a, int *perm)
{
    int n = a->rows;
    for (int i = 0; i < n; i++)
        perm[i] = i;
    for (int k = 0; k < n; k++) {
        int pivot = k;
        double best = fabs(*matrix_at(a, k, k));
        for (int i = k + 1; i < n; i++) {
            double v = fabs(*matrix_at(a, i, k));
            if (v > best) {
                best = v;
                pivot = i;
            }
        }
        if (best < 1e-300)
            return -1;
        if (pivot != k) {
            swap_rows(a, k, pivot);
            int t = perm[k];
            perm[k] = perm[pivot];
            perm[pivot] = t;
        }
        double diag = *matrix_at(a, k, k);
        for (int i = k + 1; i < n; i++) {
            double f = *matrix_at(a, i, k) / diag;
            *matrix_at(a, i, k) = f;
            for (int j = k + 1; j < n; j++)
                *matrix_at(a, i, j) -= f * *matrix_at(a, k, j);
        }
    }
    return 0;
}

void lu_solve(const struct matrix *lu, const int *perm, const double *b, double *x)
{
    int n = lu->rows;
    const double *d = lu->data;
    for (int i = 0; i < n; i++) {
        double s = b[perm[i]];
        for (int j = 0; j < i; j++)
            s -= d[i * n + j] * x[j];
        x[i] = s;
    }
    for (int i = n - 1; i >= 0; i--) {
        double s = x[i];
        for (int j = i + 1; j < n; j++)
            s -= d[i * n + j] * x[j];
        x[i] = s / d[i * n + i];
    }
}

double lu_determinant(const struct matrix *lu, const int *perm)
{
    int n = lu->rows;
    double det = 1.0;
    for (int i = 0; i < n; i++)
        det *= lu->data[i * n + i];
    /* Parity of the permutation by counting cycles. */
    int swaps = 0;
    char *seen = calloc((size_t)n, 1);
    for (int i = 0; i < n; i++) {
        if (seen[i])
            continue;
        int len = 0;
        for (int j = i; !seen[j]; j = perm[j]) {
            seen[j] = 1;
            len++;
        }
        swaps += len - 1;
    }
    free(seen);
    return (swaps % 2) ? -det : det;
}

double vec_norm2(const double *x, int n)
{
    double s = 0.0;
    for (int i = 0; i < n; i++)
        s += x[i] * x[i];
    return sqrt(s);
}
