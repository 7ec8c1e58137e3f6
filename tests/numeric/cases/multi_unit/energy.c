double pair(double a, double b);
double energy(const double *x, int n) {
    double e = 0.0;
    for (int i = 0; i + 1 < n; i++) e += pair(x[i], x[i + 1]);
    return e;
}
