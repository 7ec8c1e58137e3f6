// Loops for scalable vectors (<vscale x N x T>) when built for AArch64 with SVE.
// ir-corpus-variant: --target=aarch64-linux-gnu -march=armv8-a+sve
// ir-corpus-variant: --target=aarch64-linux-gnu -march=armv8-a+sve -ffast-math

void saxpy(float *restrict y, const float *restrict x, float a, int n) {
    for (int i = 0; i < n; i++)
        y[i] += a * x[i];
}

double sum(const double *x, long n) {
    double s = 0;
    for (long i = 0; i < n; i++)
        s += x[i];
    return s;
}

void select_copy(int *restrict out, const int *restrict a, const int *restrict b, int n) {
    for (int i = 0; i < n; i++)
        out[i] = a[i] > b[i] ? a[i] : b[i] * 2;
}

void widen(long *restrict out, const short *restrict in, int n) {
    for (int i = 0; i < n; i++)
        out[i] = (long)in[i] * in[i];
}
