/* ADBench LSTM driver: times the loss and its gradient with respect to the main and extra
 * parameters by reverse mode through __enzyme_autodiff, optionally checks it against finite
 * differences.
 *
 *   lstm INPUT REPEAT [--check]
 */
#include <stdio.h>
#include <string.h>

#include "adbench.h"
#include "lstm.h"

#define CHECKED_COORDINATES 12

struct lstm_run {
    struct lstm_input in;
    double *gradient;   /* main then extra parameter gradients */
    long main_size, extra_size;
    double *scratch_state, *scratch_sequence;   /* shadows of the data passed as dup (DATA_ARG) */
};

static volatile double sink;

static double objective(void *context) {
    const struct lstm_input *in = &((struct lstm_run *)context)->in;
    return lstm_objective(in->l, in->c, in->b, in->main_params, in->extra_params, in->state, in->sequence);
}

static void run_objective(void *context) {
    sink = objective(context);
}

static void run_gradient(void *context) {
    struct lstm_run *run = context;
    const struct lstm_input *in = &run->in;
    double *dmain = run->gradient, *dextra = run->gradient + run->main_size;
    memset(run->gradient, 0, sizeof(double) * (run->main_size + run->extra_size));
    clear_scratch(run->scratch_state, 2L * in->l * in->b);
    clear_scratch(run->scratch_sequence, (long)in->c * in->b);
    __enzyme_autodiff((void *)lstm_objective, enzyme_const, in->l, enzyme_const, in->c,
                      enzyme_const, in->b, enzyme_dup, in->main_params, dmain, enzyme_dup,
                      in->extra_params, dextra, DATA_ARG(in->state, run->scratch_state),
                      DATA_ARG(in->sequence, run->scratch_sequence));
}

static double *parameter(struct lstm_run *run, long i) {
    return i < run->main_size ? &run->in.main_params[i] : &run->in.extra_params[i - run->main_size];
}

/* Relative error of a random gradient coordinate against a central difference. */
static double coordinate_error(void *context) {
    struct lstm_run *run = context;
    long i = random_below((int)(run->main_size + run->extra_size));
    return relative_error(run->gradient[i], central_difference(objective, run, parameter(run, i)));
}

int main(int argc, char **argv) {
    struct options options = parse_options(argc, argv);
    struct lstm_run run = {.in = read_lstm(options.path)};
    run.main_size = 2L * run.in.l * 4 * run.in.b;
    run.extra_size = 3L * run.in.b;
    run.gradient = checked_malloc(sizeof(double) * (run.main_size + run.extra_size));
    run.scratch_state = checked_malloc(sizeof(double) * 2 * run.in.l * run.in.b);
    run.scratch_sequence = checked_malloc(sizeof(double) * run.in.c * run.in.b);
    printf("input l=%d c=%d b=%d\n", run.in.l, run.in.c, run.in.b);
    struct benchmark benchmark = {run_objective, run_gradient, coordinate_error, &run};
    run_benchmark(&options, benchmark, CHECKED_COORDINATES);
    return 0;
}
