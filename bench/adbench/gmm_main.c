/* ADBench GMM driver: times the objective and its full gradient (alphas, means, icf) by
 * reverse mode through __enzyme_autodiff, optionally checks it against finite differences.
 *
 *   gmm INPUT REPEAT [--check]
 */
#include <stdio.h>
#include <string.h>

#include "adbench.h"
#include "gmm.h"

#define CHECKED_COORDINATES 12

struct gmm_run {
    struct gmm_input in;
    double *gradient;   /* alphas, means, icf gradients, back to back */
    double *scratch;    /* shadow of the points when they are passed as dup (DATA_ARG) */
    long sizes[3];
};

static volatile double sink;

static double objective(void *context) {
    const struct gmm_input *in = &((struct gmm_run *)context)->in;
    return gmm_objective(in->d, in->k, in->n, in->alphas, in->means, in->icf, in->x, in->gamma, in->m);
}

static void run_objective(void *context) {
    sink = objective(context);
}

static long total_size(const struct gmm_run *run) {
    return run->sizes[0] + run->sizes[1] + run->sizes[2];
}

static void run_gradient(void *context) {
    struct gmm_run *run = context;
    const struct gmm_input *in = &run->in;
    double *dalphas = run->gradient;
    double *dmeans = dalphas + run->sizes[0];
    double *dicf = dmeans + run->sizes[1];
    memset(run->gradient, 0, sizeof(double) * total_size(run));
    clear_scratch(run->scratch, (long)in->d * in->n);
    __enzyme_autodiff((void *)gmm_objective, enzyme_const, in->d, enzyme_const, in->k,
                      enzyme_const, in->n, enzyme_dup, in->alphas, dalphas, enzyme_dup, in->means,
                      dmeans, enzyme_dup, in->icf, dicf, DATA_ARG(in->x, run->scratch), enzyme_const,
                      in->gamma, enzyme_const, in->m);
}

/* The parameter that gradient coordinate `i` belongs to. */
static double *parameter(struct gmm_run *run, long i) {
    if (i < run->sizes[0])
        return &run->in.alphas[i];
    i -= run->sizes[0];
    if (i < run->sizes[1])
        return &run->in.means[i];
    return &run->in.icf[i - run->sizes[1]];
}

/* Relative error of a random gradient coordinate against a central difference. */
static double coordinate_error(void *context) {
    struct gmm_run *run = context;
    long i = random_below((int)total_size(run));
    return relative_error(run->gradient[i], central_difference(objective, run, parameter(run, i)));
}

int main(int argc, char **argv) {
    struct options options = parse_options(argc, argv);
    struct gmm_run run = {.in = read_gmm(options.path)};
    run.sizes[0] = run.in.k;
    run.sizes[1] = (long)run.in.d * run.in.k;
    run.sizes[2] = (long)run.in.d * (run.in.d + 1) / 2 * run.in.k;
    run.gradient = checked_malloc(sizeof(double) * total_size(&run));
    run.scratch = checked_malloc(sizeof(double) * run.in.d * run.in.n);
    printf("input d=%d k=%d n=%d\n", run.in.d, run.in.k, run.in.n);
    struct benchmark benchmark = {run_objective, run_gradient, coordinate_error, &run};
    run_benchmark(&options, benchmark, CHECKED_COORDINATES);
    return 0;
}
