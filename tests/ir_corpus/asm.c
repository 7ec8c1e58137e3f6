// Inline assembly: plain, volatile, with clobbers, memory operands, asm goto, Intel dialect.
#include <stdint.h>

int add_asm(int a, int b) {
    int r;
    __asm__("leal (%1,%2), %0" : "=r"(r) : "r"(a), "r"(b));
    return r;
}

uint64_t rdtsc(void) {
    uint32_t lo, hi;
    __asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
    return ((uint64_t)hi << 32) | lo;
}

void barrier(void) { __asm__ __volatile__("" ::: "memory"); }

int increment_memory(int *p) {
    __asm__("incl %0" : "+m"(*p));
    return *p;
}

int check_bit(unsigned x, int bit) {
    __asm__ goto("btl %1, %0\n\tjc %l[set]" : : "r"(x), "r"(bit) : "cc" : set);
    return 0;
set:
    return 1;
}

int intel_add(int a) {
    int r;
    __asm__(".intel_syntax noprefix\n\tlea %0, [%1 + 4]\n\t.att_syntax" : "=r"(r) : "r"(a));
    return r;
}

double sqrt_asm(double x) {
    double r;
    __asm__("sqrtsd %1, %0" : "=x"(r) : "x"(x));
    return r;
}
