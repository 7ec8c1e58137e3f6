// Code compiled with -g: dbg_declare at -O0, dbg_value (and DIArgList) once optimized.
// ir-corpus-variant: -g
// ir-corpus-variant: -g -ffast-math -march=x86-64-v3
#include <math.h>

struct point { double x, y, z; };

static inline double sq(double v) { return v * v; }

double distance(struct point a, struct point b) {
    double dx = a.x - b.x;
    double dy = a.y - b.y;
    double dz = a.z - b.z;
    return sqrt(sq(dx) + sq(dy) + sq(dz));
}

int difference(int a, int b) {
    int d = a - b;
    int e = a * b;
    return d > 0 ? e : d;
}

double energy(const struct point *p, int n, double k) {
    double e = 0;
    for (int i = 0; i < n; i++) {
        for (int j = i + 1; j < n; j++) {
            double r = distance(p[i], p[j]);
            e += k / r;
        }
    }
    return e;
}

long sum_squares(const int *v, long n) {
    long s = 0;
    for (long i = 0; i < n; i++) {
        long t = (long)v[i] * v[i];
        s += t;
    }
    return s;
}

void smooth(double *out, const double *in, int n) {
    for (int i = 1; i + 1 < n; i++)
        out[i] = 0.25 * in[i - 1] + 0.5 * in[i] + 0.25 * in[i + 1];
}
