// Less common constructs: musttail calls, strict floating point (metadata arguments),
// assumption bundles, address spaces, dynamic allocas, constant expressions, function starts.
// ir-corpus-variant: -fsanitize=cfi-icall -fvisibility=hidden
// ir-corpus-variant: -g -Xclang -fexperimental-assignment-tracking=forced
#include <stddef.h>
#include <stdint.h>

int forward(int x);

int trampoline(int x) {
    if (x > 100)
        return x;
    __attribute__((musttail)) return forward(x + 1);
}

int forward(int x) { return x & 1 ? trampoline(x * 3) : x; }

#pragma STDC FENV_ACCESS ON
double strict_math(double a, double b) { return a / b + a * b - (double)(long)a; }
#pragma STDC FENV_ACCESS OFF

double aligned_sum(const double *p, size_t n) {
    const double *q = __builtin_assume_aligned(p, 64);
    double s = 0;
    for (size_t i = 0; i < n; i++)
        s += q[i];
    return s;
}

int read_segment(const int __attribute__((address_space(256))) *p) { return p[1]; }

double dynamic_stack(size_t n) {
    double *buf = __builtin_alloca(n * sizeof(double));
    for (size_t i = 0; i < n; i++)
        buf[i] = (double)i;
    return buf[n / 2];
}

int table[16];
static const char name[] = "extras";

intptr_t addresses(int i) { return (intptr_t)&table[3] + (intptr_t)name + i; }

const void *function_start(void) { return __builtin_function_start(forward); }

typedef int (*unary)(int);

int call_indirect(unary f, int x) { return f(x) + f(x + 1); }

void escape(int *values);

int assign_fields(int a, int b) {
    int values[4] = {a, b, a + b, 7};
    escape(values);
    values[2] = a * b;
    return values[0] + values[2];
}
