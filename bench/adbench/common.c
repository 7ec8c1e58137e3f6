/* Helpers shared by the ADBench drivers: options, timing, report lines, finite differences. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "adbench.h"

/* Relative step of the central differences: the objectives' rounding noise stays below 1e-6. */
#define FD_STEP 1e-4

static void usage(const char *program) {
    fprintf(stderr, "usage: %s INPUT REPEAT [--check]\n", program);
    exit(2);
}

struct options parse_options(int argc, char **argv) {
    struct options options = {0, 1, 0};
    if (argc < 3 || argc > 4)
        usage(argv[0]);
    options.path = argv[1];
    options.repeat = atoi(argv[2]);
    if (options.repeat < 1)
        usage(argv[0]);
    if (argc == 4) {
        if (strcmp(argv[3], "--check") != 0)
            usage(argv[0]);
        options.check = 1;
    }
    return options;
}

static double now_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}

/* Least wall seconds of `repeat` calls of `run(context)`. */
static double best_seconds(void (*run)(void *), void *context, int repeat) {
    double best = INFINITY;
    for (int i = 0; i < repeat; i++) {
        double start = now_seconds();
        run(context);
        double elapsed = now_seconds() - start;
        if (elapsed < best)
            best = elapsed;
    }
    return best;
}

/* Tape bytes of the last derivative request, or -1 when the program was not built by ltoad. */
static long last_tape_bytes(void) {
    return &__ltoad_last_tape_bytes ? __ltoad_last_tape_bytes : -1;
}

/* The largest of `count` relative errors drawn by `error(context)`; a NaN stays. */
static double worst_error(double (*error)(void *), void *context, int count) {
    double worst = 0.0;
    for (int i = 0; i < count; i++) {
        double e = error(context);
        if (isnan(e) || e > worst)
            worst = e;
    }
    return worst;
}

void run_benchmark(const struct options *options, struct benchmark b, int checked) {
    double objective_seconds = best_seconds(b.objective, b.context, options->repeat);
    double gradient_seconds = best_seconds(b.gradient, b.context, options->repeat);
    printf("objective_seconds %.6e\n", objective_seconds);
    printf("gradient_seconds %.6e\n", gradient_seconds);
    printf("ratio %.3f\n", gradient_seconds / objective_seconds);
    printf("tape_bytes %ld\n", last_tape_bytes());
    if (options->check) {
        b.gradient(b.context);
        printf("check_coordinates %d\n", checked);
        printf("check_max_rel_error %.3e\n", worst_error(b.entry_error, b.context, checked));
    }
}

int random_below(int bound) {
    static unsigned long long state = 0x9e3779b97f4a7c15ULL;
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (int)((state >> 33) % (unsigned long long)bound);
}

double central_difference(double (*f)(void *), void *context, double *x) {
    double saved = *x;
    double h = FD_STEP * (fabs(saved) > 1.0 ? fabs(saved) : 1.0);
    *x = saved + h;
    double up = f(context);
    *x = saved - h;
    double down = f(context);
    *x = saved;
    return (up - down) / (2 * h);
}

double relative_error(double ad, double fd) {
    double scale = fmax(fmax(fabs(ad), fabs(fd)), 1e-8);
    return fabs(ad - fd) / scale;
}

void *checked_malloc(unsigned long bytes) {
    void *p = malloc(bytes ? bytes : 1);
    if (!p) {
        fprintf(stderr, "out of memory (%lu bytes)\n", bytes);
        exit(1);
    }
    return p;
}
