/* ADBench GMM: negative log-likelihood-style objective of a Gaussian mixture with a Wishart prior. */
#ifndef GMM_H
#define GMM_H

struct gmm_input {
    int d, k, n;        /* dimension, components, points */
    double *alphas;     /* k log mixture weights (unnormalized) */
    double *means;      /* d*k component means */
    double *icf;        /* d*(d+1)/2 * k inverse covariance factors: log diagonal, then lower part */
    double *x;          /* d*n points */
    double gamma;       /* Wishart prior parameters */
    int m;
};

/* Reads the ADBench text format (FileFormat.md, GMM); exits with a message on a bad file. */
struct gmm_input read_gmm(const char *path);

/* The objective: sum over points of the log-sum-exp over components of the log densities,
 * minus n times the log-sum-exp of alphas, plus the log Wishart prior of the precisions.
 */
double gmm_objective(int d, int k, int n, const double *alphas, const double *means,
                     const double *icf, const double *x, double gamma, int m);

#endif
