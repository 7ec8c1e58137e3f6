// Calls the math library and its intrinsics in float, double and long double.
// ir-corpus-variant: -ffast-math
#include <math.h>

double f64(double x, double y) {
    return sin(x) * cos(y) + exp(x) - log(fabs(y) + 1) + pow(x, y) + sqrt(fabs(x)) + tanh(x) +
           atan2(y, x) + fmod(x, 3.0) + floor(x) + ceil(y) + round(x) + trunc(y) + copysign(x, y) +
           fma(x, y, 1.0) + hypot(x, y) + cbrt(y) + erf(x) + lgamma(y) + log1p(x) + expm1(y);
}

float f32(float x, float y) {
    return sinf(x) * cosf(y) + expf(x) - logf(fabsf(y) + 1) + powf(x, 3.0f) + sqrtf(fabsf(x)) +
           fminf(x, y) + fmaxf(x, y) + exp2f(x) + log2f(y) + log10f(x + 2) + asinf(x / 4);
}

long double f80(long double x) { return sinl(x) + expl(x) * sqrtl(fabsl(x)) + powl(x, 2.5L); }

int classify(double x) { return isnan(x) * 4 + isinf(x) * 2 + (signbit(x) != 0) + fpclassify(x); }

double integer_power(double x, int n) { return pow(x, 2) + pow(x, n) + ldexp(x, n) + scalbn(x, 3); }

long conversions(double x, float y) { return lround(x) + (long)rintf(y) + (long)nearbyint(x) + ilogb(x); }

double polynomial(const double *c, int n, double x) {
    double r = 0;
    for (int i = n - 1; i >= 0; i--)
        r = r * x + c[i];
    return r;
}
