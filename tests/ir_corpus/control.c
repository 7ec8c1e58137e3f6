// Control flow and data layouts: switch, goto, computed goto, varargs, structs by value,
// complex numbers, long double, 128-bit integers, bit-fields, VLAs, builtins.
// ir-corpus-variant: -g
#include <complex.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct small { float x, y; };
struct big { double v[6]; int tag; };
struct bits { unsigned a : 3, b : 9; signed c : 5; };
union pun { double d; unsigned long long u; };

int classify(int x) {
    switch (x) {
    case 0: return 10;
    case 1: case 2: return 20;
    case 7: return x * 3;
    case 100: return -1;
    case 1000: return 5;
    default: return x > 50 ? 99 : 0;
    }
}

int dense(int x) {
    static const int table[] = {3, 1, 4, 1, 5, 9, 2, 6};
    switch (x & 7) {
    case 0: return table[0] + x;
    case 1: return table[1] * x;
    case 2: return table[2] - x;
    case 3: return table[3] << x;
    case 4: return table[4] >> (x & 3);
    case 5: return table[5] ^ x;
    case 6: return table[6] | x;
    default: return table[7] & x;
    }
}

int with_goto(int n) {
    int i = 0, s = 0;
again:
    if (i >= n) goto done;
    s += i * i;
    i++;
    goto again;
done:
    return s;
}

int computed_goto(const unsigned char *code, int n) {
    static void *labels[] = {&&op_inc, &&op_dec, &&op_dbl, &&op_end};
    int acc = 0, pc = 0;
    goto *labels[code[pc] & 3];
op_inc: acc++; if (++pc < n) goto *labels[code[pc] & 3]; return acc;
op_dec: acc--; if (++pc < n) goto *labels[code[pc] & 3]; return acc;
op_dbl: acc *= 2; if (++pc < n) goto *labels[code[pc] & 3]; return acc;
op_end: return acc;
}

double sum_varargs(int n, ...) {
    va_list ap, copy;
    va_start(ap, n);
    va_copy(copy, ap);
    double s = 0;
    for (int i = 0; i < n; i++)
        s += va_arg(ap, double) * va_arg(copy, double);
    va_end(copy);
    va_end(ap);
    return s;
}

struct small add_small(struct small a, struct small b) {
    struct small r = {a.x + b.x, a.y * b.y};
    return r;
}

struct big scale_big(struct big b, double k) {
    for (int i = 0; i < 6; i++)
        b.v[i] *= k;
    b.tag++;
    return b;
}

double complex cmul(double complex a, double complex b) { return a * b / (b + 1.0); }
float complex cfloat(float complex a) { return a * I + conjf(a); }

long double ldpoly(long double x) { return 1.5L * x * x - 0.25L * x + 3.0L; }

__int128 wide(__int128 a, unsigned __int128 b) { return a * (__int128)b + (a >> 70) - (__int128)(b % 1000); }

int bitfields(struct bits *p) {
    p->a = 5;
    p->c = -3;
    return p->a + p->b + p->c;
}

unsigned long long pun(double d) {
    union pun u = {.d = d};
    return u.u ^ (u.u >> 52);
}

double vla(int n) {
    double buf[n];
    for (int i = 0; i < n; i++)
        buf[i] = i * 0.5;
    double s = 0;
    for (int i = n - 1; i >= 0; i--)
        s += buf[i];
    return s;
}

int builtins(int x, const char *s) {
    if (__builtin_expect(x < 0, 0))
        __builtin_trap();
    char tmp[64];
    memset(tmp, 0, sizeof tmp);
    strncpy(tmp, s, sizeof tmp - 1);
    return __builtin_popcount(x) + __builtin_clz(x | 1) + (int)strlen(tmp) + __builtin_bswap32(x);
}

static int (*const ops[])(int) = {classify, dense};

int indirect(int which, int x) { return ops[which & 1](x); }

static jmp_buf env;

int jumps(int x) {
    if (setjmp(env))
        return -1;
    if (x > 10)
        longjmp(env, 1);
    return x;
}

int overflow(int a, int b, int *out) { return __builtin_mul_overflow(a, b, out); }

void *grow(void *p, size_t n) {
    void *q = realloc(p, n * 2);
    if (!q)
        abort();
    return q;
}

int print_all(int n, double *v) {
    int written = 0;
    for (int i = 0; i < n; i++)
        written += printf("%d: %g\n", i, v[i]);
    return written;
}

_Float16 half_math(_Float16 a, _Float16 b) { return a * b + (_Float16)1.5; }

__bf16 bfloat_round(float x) { return (__bf16)x; }

__float128 quad(__float128 a) { return a * a + 2; }
