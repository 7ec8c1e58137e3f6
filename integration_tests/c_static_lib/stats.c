#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void stats_init(struct running_stats *s)
{
    s->n = 0;
    s->mean = 0.0;
    s->m2 = 0.0;
    s->min = INFINITY;
    s->max = -INFINITY;
}

void stats_push(struct running_stats *s, double x)
{
    s->n++;
    double delta = x - s->mean;
    s->mean += delta / (double)s->n;
    s->m2 += delta * (x - s->mean);
    if (x < s->min)
        s->min = x;
    if (x > s->max)
        s->max = x;
}

double stats_variance(const struct running_stats *s)
{
    return s->n > 1 ? s->m2 / (double)(s->n - 1) : 0.0;
}

double stats_stddev(const struct running_stats *s)
{
    return sqrt(stats_variance(s));
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double stats_median(const double *x, int n)
{
    double *sorted = malloc((size_t)n * sizeof(double));
    memcpy(sorted, x, (size_t)n * sizeof(double));
    qsort(sorted, (size_t)n, sizeof(double), compare_doubles);
    double m = (n % 2) ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
    free(sorted);
    return m;
}

void stats_histogram(const double *x, int n, double lo, double hi, int nbins, int *counts)
{
    memset(counts, 0, (size_t)nbins * sizeof(int));
    double width = (hi - lo) / nbins;
    for (int i = 0; i < n; i++) {
        int b = (int)floor((x[i] - lo) / width);
        if (b < 0)
            b = 0;
        if (b >= nbins)
            b = nbins - 1;
        counts[b]++;
    }
}

double lcg_uniform(struct lcg *g)
{
    g->state = g->state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(g->state >> 11) * 0x1.0p-53;
}

double lcg_normal(struct lcg *g)
{
    /* Box-Muller; the second variate is discarded to keep the state simple. */
    double u1 = lcg_uniform(g);
    double u2 = lcg_uniform(g);
    if (u1 < 1e-300)
        u1 = 1e-300;
    return sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
}
