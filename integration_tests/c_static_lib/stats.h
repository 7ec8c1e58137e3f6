#ifndef NUM_STATS_H
#define NUM_STATS_H

/* Welford's online mean and variance. */
struct running_stats {
    long n;
    double mean;
    double m2;
    double min;
    double max;
};

void stats_init(struct running_stats *s);
void stats_push(struct running_stats *s, double x);
double stats_variance(const struct running_stats *s);
double stats_stddev(const struct running_stats *s);

/* Median of n values (the input is left unchanged). */
double stats_median(const double *x, int n);
/* Counts of x in nbins equal-width bins over [lo, hi); values outside are clamped. */
void stats_histogram(const double *x, int n, double lo, double hi, int nbins, int *counts);

/* Deterministic 64-bit linear congruential generator, uniform in [0, 1). */
struct lcg {
    unsigned long long state;
};
double lcg_uniform(struct lcg *g);
double lcg_normal(struct lcg *g);

#endif
