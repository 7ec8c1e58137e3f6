/* Shared declarations of the ADBench drivers: the Enzyme API ltoad answers at link time,
 * command-line options, best-of-N timing, the report lines and the finite-difference check.
 */
#ifndef ADBENCH_H
#define ADBENCH_H

#include <string.h>

extern int enzyme_dup, enzyme_const, enzyme_out, enzyme_dupnoneed;
double __enzyme_autodiff(void *, ...);

/* Bytes the last derivative request's forward sweep put on the tape (set by ltoad). */
extern long __ltoad_last_tape_bytes __attribute__((weak));

/* Read-only data (GMM points, LSTM state and sequence, BA features) goes to a derivative request
 * as enzyme_const. Built with -DADBENCH_DATA_AS_DUP it goes as enzyme_dup with a scratch shadow
 * that nothing reads: the same parameter derivatives, plus unused ones for the data. The
 * benchmark uses that build when the enzyme_const one fails (ltoad's AD before optimization
 * gives an enzyme_const pointer spilled to a stack slot a null shadow and writes through it).
 */
#ifdef ADBENCH_DATA_AS_DUP
#define DATA_ARG(data, scratch) enzyme_dup, (data), (scratch)
#define DATA_AS_DUP 1
#else
#define DATA_ARG(data, scratch) enzyme_const, (data)
#define DATA_AS_DUP 0
#endif

/* Zeroes a scratch shadow before a request when data goes as dup: ltoad copies shadows along
 * with a memcpy of their data, so what earlier requests accumulated would flow back in.
 */
static inline void clear_scratch(double *scratch, long count) {
    if (DATA_AS_DUP)
        memset(scratch, 0, sizeof(double) * count);
}

struct options {
    const char *path;   /* the ADBench input file */
    int repeat;         /* timed runs of the objective and of the gradient; the best counts */
    int check;          /* compare the gradient with central finite differences */
};

/* Parses `<input file> <repeat> [--check]`; prints usage and exits on a bad command line. */
struct options parse_options(int argc, char **argv);

/* What a driver measures; every function runs on `context`. */
struct benchmark {
    void (*objective)(void *);
    void (*gradient)(void *);       /* the derivative requests; the last one's tape is reported */
    double (*entry_error)(void *);  /* relative error of one random gradient entry vs finite differences */
    void *context;
};

/* Times the objective and the gradient (best of options->repeat, CLOCK_MONOTONIC) and prints
 * them, their ratio and the tape bytes as `key value` lines; with --check runs the gradient once
 * more and prints the largest error of `checked` entries.
 */
void run_benchmark(const struct options *options, struct benchmark benchmark, int checked);

/* Deterministic pseudo-random integer in [0, bound). */
int random_below(int bound);

/* Derivative of `f` by the input `*x` by central differences; *x is restored after. */
double central_difference(double (*f)(void *), void *context, double *x);

/* |ad - fd| relative to the larger magnitude (absolute below 1e-8). */
double relative_error(double ad, double fd);


/* Allocation that exits with a message when memory is exhausted. */
void *checked_malloc(unsigned long bytes);

#endif
