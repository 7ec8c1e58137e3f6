/* ADBench GMM objective (Srajer, Kukelova, Fitzgibbon, "A benchmark of selected algorithmic
 * differentiation tools on some problems in computer vision and machine learning", 2018):
 *
 *   E = sum_i logsumexp_k(alpha_k + sum(q_k) - |Q_k (x_i - mu_k)|^2 / 2) - n logsumexp(alpha)
 *       + sum_k (gamma^2 / 2 |Q_k|_F^2 - m sum(q_k)) - k C(d, gamma, m) - n d / 2 log(2 pi)
 *
 * with Q_k lower triangular, diagonal exp(q_k) and strictly lower part l_k (icf = [q_k, l_k]).
 */
#include <math.h>
#include <stdlib.h>

#include "gmm.h"

static double arr_max(int n, const double *x) {
    double m = x[0];
    for (int i = 1; i < n; i++)
        if (x[i] > m)
            m = x[i];
    return m;
}

static double sqnorm(int n, const double *x) {
    double s = 0.0;
    for (int i = 0; i < n; i++)
        s += x[i] * x[i];
    return s;
}

static double logsumexp(int n, const double *x) {
    double mx = arr_max(n, x);
    double s = 0.0;
    for (int i = 0; i < n; i++)
        s += exp(x[i] - mx);
    return log(s) + mx;
}

/* log of the multivariate gamma function Gamma_p(a) */
static double log_gamma_distrib(double a, int p) {
    double out = 0.25 * p * (p - 1) * log(M_PI);
    for (int j = 1; j <= p; j++)
        out += lgamma(a + 0.5 * (1 - j));
    return out;
}

/* sum_qs[k] = sum of the log diagonal of Q_k; Qdiags = its exponential */
static void preprocess_qs(int d, int k, const double *icf, double *sum_qs, double *Qdiags) {
    int icf_size = d * (d + 1) / 2;
    for (int ik = 0; ik < k; ik++) {
        sum_qs[ik] = 0.0;
        for (int id = 0; id < d; id++) {
            double q = icf[ik * icf_size + id];
            sum_qs[ik] += q;
            Qdiags[ik * d + id] = exp(q);
        }
    }
}

static void subtract(int d, const double *x, const double *y, double *out) {
    for (int id = 0; id < d; id++)
        out[id] = x[id] - y[id];
}

/* out = Q x, Q = diag(Qdiag) + strictly lower part ltri (column-wise) */
static void q_times_x(int d, const double *Qdiag, const double *ltri, const double *x, double *out) {
    for (int id = 0; id < d; id++)
        out[id] = Qdiag[id] * x[id];
    int index = 0;
    for (int i = 0; i < d; i++)
        for (int j = i + 1; j < d; j++)
            out[j] += ltri[index++] * x[i];
}

static double log_wishart_prior(int d, int k, double gamma, int m, const double *sum_qs,
                                const double *Qdiags, const double *icf) {
    int n = d + m + 1;
    int icf_size = d * (d + 1) / 2;
    double C = n * d * (log(gamma) - 0.5 * log(2)) - log_gamma_distrib(0.5 * n, d);
    double out = 0.0;
    for (int ik = 0; ik < k; ik++) {
        double frobenius = sqnorm(d, &Qdiags[ik * d]) + sqnorm(icf_size - d, &icf[ik * icf_size + d]);
        out += 0.5 * gamma * gamma * frobenius - m * sum_qs[ik];
    }
    return out - k * C;
}

/* sum over points of the log-sum-exp over components */
static double data_term(int d, int k, int n, const double *alphas, const double *means,
                        const double *icf, const double *x, const double *sum_qs,
                        const double *Qdiags) {
    int icf_size = d * (d + 1) / 2;
    double *xcentered = malloc(sizeof(double) * d);
    double *Qxcentered = malloc(sizeof(double) * d);
    double *main_term = malloc(sizeof(double) * k);
    double slse = 0.0;
    for (int ix = 0; ix < n; ix++) {
        for (int ik = 0; ik < k; ik++) {
            subtract(d, &x[ix * d], &means[ik * d], xcentered);
            q_times_x(d, &Qdiags[ik * d], &icf[ik * icf_size + d], xcentered, Qxcentered);
            main_term[ik] = alphas[ik] + sum_qs[ik] - 0.5 * sqnorm(d, Qxcentered);
        }
        slse += logsumexp(k, main_term);
    }
    free(main_term);
    free(Qxcentered);
    free(xcentered);
    return slse;
}

double gmm_objective(int d, int k, int n, const double *alphas, const double *means,
                     const double *icf, const double *x, double gamma, int m) {
    const double constant = -n * d * 0.5 * log(2 * M_PI);
    double *Qdiags = malloc(sizeof(double) * d * k);
    double *sum_qs = malloc(sizeof(double) * k);
    preprocess_qs(d, k, icf, sum_qs, Qdiags);
    double slse = data_term(d, k, n, alphas, means, icf, x, sum_qs, Qdiags);
    double err = constant + slse - n * logsumexp(k, alphas)
                 + log_wishart_prior(d, k, gamma, m, sum_qs, Qdiags, icf);
    free(sum_qs);
    free(Qdiags);
    return err;
}
