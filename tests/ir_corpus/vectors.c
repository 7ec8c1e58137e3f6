// Loops the vectorizers turn into vector IR: reductions, selects, shuffles, gathers, casts.
// ir-corpus-variant: -ffast-math -march=x86-64-v3
// ir-corpus-variant: -march=x86-64-v4
#include <math.h>
#include <stdint.h>

double dot(const double *a, const double *b, int n) {
    double s = 0;
    for (int i = 0; i < n; i++)
        s += a[i] * b[i];
    return s;
}

void axpy(double *restrict y, const double *restrict x, double a, int n) {
    for (int i = 0; i < n; i++)
        y[i] += a * x[i];
}

void clamp(float *a, float lo, float hi, int n) {
    for (int i = 0; i < n; i++)
        a[i] = a[i] < lo ? lo : (a[i] > hi ? hi : a[i]);
}

void reverse_add(int *restrict a, const int *restrict b, int n) {
    for (int i = 0; i < n; i++)
        a[i] = b[n - 1 - i] + b[i];
}

void swap_pairs(float *restrict a, const float *restrict b, int n) {
    for (int i = 0; i < n; i++) {
        a[2 * i] = b[2 * i + 1];
        a[2 * i + 1] = b[2 * i];
    }
}

void gather(double *restrict out, const double *restrict table, const int *idx, int n) {
    for (int i = 0; i < n; i++)
        out[i] = table[idx[i]] * 0.5;
}

void convert(float *restrict out, const int64_t *restrict in, int n) {
    for (int i = 0; i < n; i++)
        out[i] = (float)in[i] / 3.0f;
}

int64_t isum(const int32_t *a, int n) {
    int64_t s = 0;
    for (int i = 0; i < n; i++)
        s += a[i] > 0 ? a[i] : -a[i];
    return s;
}

double maxabs(const double *a, int n) {
    double m = 0;
    for (int i = 0; i < n; i++)
        m = fmax(m, fabs(a[i]));
    return m;
}

void normalize3(double *v, int n) {
    for (int i = 0; i < n; i++) {
        double *p = v + 3 * i;
        double r = sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
        p[0] /= r;
        p[1] /= r;
        p[2] /= r;
    }
}

unsigned char saturate(unsigned char *restrict a, const unsigned char *restrict b, int n) {
    unsigned char acc = 0;
    for (int i = 0; i < n; i++) {
        unsigned s = a[i] + b[i];
        a[i] = s > 255 ? 255 : s;
        acc ^= a[i];
    }
    return acc;
}

typedef double v4d __attribute__((vector_size(32)));
typedef int v8i __attribute__((vector_size(32)));

v4d vec_ops(v4d a, v4d b) {
    v4d c = a * b + (v4d){1.0, 2.0, 3.0, 4.0};
    return __builtin_shufflevector(c, a, 0, 5, 2, 7);
}

v8i vec_int(v8i a, int k) {
    v8i r = (a << 2) ^ (v8i){k, k, k, k, k, k, k, k};
    return r[0] > 0 ? r : -r;
}

double vec_extract(v4d a, int i) {
    a[1] = 7.5;
    return a[i] + a[3];
}
