/* Even levels of the continued fraction; recurses into odd.c. */
double cf_odd(const double *x, int depth);
double cf_even(const double *x, int depth) {
    if (depth == 0) return x[0];
    return x[0] + x[1] / (1.0 + cf_odd(x, depth - 1));
}
