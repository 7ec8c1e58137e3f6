// Atomic, volatile and thread-local memory accesses.
#include <stdatomic.h>
#include <stdint.h>

_Atomic int counter;
_Atomic double total;
_Thread_local long tls_value;
volatile int flag;

int atomic_ops(_Atomic long *p, long v) {
    long a = atomic_fetch_add_explicit(p, v, memory_order_relaxed);
    long b = atomic_fetch_sub_explicit(p, 1, memory_order_acquire);
    long c = atomic_fetch_and(p, 0xff);
    long d = atomic_fetch_or_explicit(p, 0x100, memory_order_release);
    long e = atomic_fetch_xor_explicit(p, 3, memory_order_acq_rel);
    long f = atomic_exchange(p, a + b);
    return (int)(a + b + c + d + e + f);
}

int cas(_Atomic int *p, int expected, int desired) {
    int strong = atomic_compare_exchange_strong(p, &expected, desired);
    int weak = atomic_compare_exchange_weak_explicit(p, &expected, desired + 1, memory_order_acq_rel,
                                                     memory_order_acquire);
    return strong + weak + expected;
}

void fences(void) {
    atomic_thread_fence(memory_order_seq_cst);
    atomic_thread_fence(memory_order_acquire);
    atomic_signal_fence(memory_order_release);
}

int loads_stores(void) {
    atomic_store_explicit(&counter, 5, memory_order_release);
    int v = atomic_load_explicit(&counter, memory_order_acquire);
    int w = atomic_load(&counter);
    atomic_store(&counter, v + w);
    return v;
}

double add_total(double x) {
    double old = atomic_load(&total);
    while (!atomic_compare_exchange_weak(&total, &old, old + x))
        ;
    return old;
}

float float_rmw(float *p, float x) { return __atomic_fetch_add(p, x, __ATOMIC_SEQ_CST); }

int minmax(int *p, unsigned *q, int x) {
    int a = __atomic_fetch_max(p, x, __ATOMIC_RELAXED);
    unsigned b = __atomic_fetch_min(q, (unsigned)x, __ATOMIC_RELAXED);
    int c = __atomic_fetch_nand(p, x, __ATOMIC_SEQ_CST);
    return a + (int)b + c;
}

long tls(long x) {
    tls_value += x;
    return tls_value;
}

int spin(void) {
    int n = 0;
    while (!flag)
        n++;
    flag = 0;
    return n;
}

void singlethread(int *p) { __atomic_store_n(p, 1, __ATOMIC_SEQ_CST); __atomic_signal_fence(__ATOMIC_SEQ_CST); }

__int128 wide_cas(__int128 *p, __int128 v) {
    __int128 old = *p;
    __atomic_compare_exchange_n(p, &old, v, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
    return old;
}
