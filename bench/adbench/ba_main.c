/* ADBench BA driver: times all residuals and the sparse Jacobian (ADBench's CSR layout), computed
 * by reverse mode: one __enzyme_autodiff call per reprojection residual component, seeded
 * through the shadow of the residual output, and one per weight residual (an `out` scalar).
 * Optionally checks Jacobian entries against finite differences.
 *
 *   ba INPUT REPEAT [--check]
 */
#include <stdio.h>
#include <string.h>

#include "adbench.h"
#include "ba.h"

#define CHECKED_ENTRIES 12

/* Jacobian of the 2p reprojection and p weight residuals by 11n + 3m + p parameters. Row 2i + r
 * holds 15 entries (camera, point, weight) at vals[30 i + 15 r]; weight row i one at vals[30 p + i].
 */
struct ba_jacobian {
    int rows, cols;
    int *row_starts;    /* rows + 1 */
    int *col_index;
    double *vals;
};

struct ba_run {
    struct ba_input in;
    struct ba_jacobian J;
    double *reproj_err, *w_err;
    double feat_scratch[2];     /* shadow of a feature when features are passed as dup (DATA_ARG) */
};

static void fill_structure(const struct ba_input *in, struct ba_jacobian *J) {
    int *cols = J->col_index;
    J->row_starts[0] = 0;
    for (int i = 0; i < in->p; i++) {
        int cam = in->obs[2 * i], pt = in->obs[2 * i + 1];
        for (int r = 0; r < 2; r++) {
            J->row_starts[2 * i + r + 1] = J->row_starts[2 * i + r] + BA_ROW_NONZEROS;
            for (int j = 0; j < BA_CAM_PARAMS; j++)
                *cols++ = BA_CAM_PARAMS * cam + j;
            for (int j = 0; j < 3; j++)
                *cols++ = BA_CAM_PARAMS * in->n + 3 * pt + j;
            *cols++ = BA_CAM_PARAMS * in->n + 3 * in->m + i;
        }
    }
    for (int i = 0; i < in->p; i++) {
        J->row_starts[2 * in->p + i + 1] = J->row_starts[2 * in->p + i] + 1;
        *cols++ = BA_CAM_PARAMS * in->n + 3 * in->m + i;
    }
}

static struct ba_jacobian new_jacobian(const struct ba_input *in) {
    struct ba_jacobian J;
    long nonzeros = 2L * BA_ROW_NONZEROS * in->p + in->p;
    J.rows = 3 * in->p;
    J.cols = BA_CAM_PARAMS * in->n + 3 * in->m + in->p;
    J.row_starts = checked_malloc(sizeof(int) * (J.rows + 1));
    J.col_index = checked_malloc(sizeof(int) * nonzeros);
    J.vals = checked_malloc(sizeof(double) * nonzeros);
    fill_structure(in, &J);
    return J;
}

static void run_objective(void *context) {
    struct ba_run *run = context;
    ba_objective(&run->in, run->reproj_err, run->w_err);
}

/* Row `component` of observation i's reprojection block: 15 entries written to `row`. */
static void reproj_row(struct ba_run *run, int i, int component, double *row) {
    const struct ba_input *in = &run->in;
    const double *cam = &in->cams[BA_CAM_PARAMS * in->obs[2 * i]];
    const double *X = &in->X[3 * in->obs[2 * i + 1]];
    double err[2], derr[2] = {0.0, 0.0};
    derr[component] = 1.0;
    memset(row, 0, sizeof(double) * BA_ROW_NONZEROS);
    clear_scratch(run->feat_scratch, 2);
    __enzyme_autodiff((void *)ba_reproj_error, enzyme_dup, cam, row, enzyme_dup, X,
                      row + BA_CAM_PARAMS, enzyme_dup, &in->w[i], row + BA_CAM_PARAMS + 3,
                      DATA_ARG(&in->feats[2 * i], run->feat_scratch), enzyme_dupnoneed, err, derr);
}

/* Weight rows first: the tape reported is that of one reprojection request. */
static void run_jacobian(void *context) {
    struct ba_run *run = context;
    const struct ba_input *in = &run->in;
    double *weight_vals = run->J.vals + 2L * BA_ROW_NONZEROS * in->p;
    for (int i = 0; i < in->p; i++)
        weight_vals[i] = __enzyme_autodiff((void *)ba_weight_error, enzyme_out, in->w[i]);
    for (int i = 0; i < in->p; i++)
        for (int r = 0; r < 2; r++)
            reproj_row(run, i, r, &run->J.vals[2L * BA_ROW_NONZEROS * i + BA_ROW_NONZEROS * r]);
}

struct probe {
    struct ba_run *run;
    int observation, component;
};

/* Residual `component` of one observation (0, 1: reprojection; 2: weight). */
static double residual(void *context) {
    struct probe *probe = context;
    const struct ba_input *in = &probe->run->in;
    int i = probe->observation;
    if (probe->component == 2)
        return ba_weight_error(in->w[i]);
    double err[2];
    ba_reproj_error(&in->cams[BA_CAM_PARAMS * in->obs[2 * i]], &in->X[3 * in->obs[2 * i + 1]],
                    &in->w[i], &in->feats[2 * i], err);
    return err[probe->component];
}

/* The parameter of Jacobian column `col`. */
static double *column_parameter(struct ba_input *in, int col) {
    if (col < BA_CAM_PARAMS * in->n)
        return &in->cams[col];
    col -= BA_CAM_PARAMS * in->n;
    if (col < 3 * in->m)
        return &in->X[col];
    return &in->w[col - 3 * in->m];
}

/* Relative error of one random entry of a random row against a central difference. */
static double entry_error(void *context) {
    struct ba_run *run = context;
    const struct ba_jacobian *J = &run->J;
    int row = random_below(J->rows);
    int start = J->row_starts[row], count = J->row_starts[row + 1] - start;
    int entry = start + random_below(count);
    struct probe probe = {run, row < 2 * run->in.p ? row / 2 : row - 2 * run->in.p,
                          row < 2 * run->in.p ? row % 2 : 2};
    double fd = central_difference(residual, &probe, column_parameter(&run->in, J->col_index[entry]));
    return relative_error(J->vals[entry], fd);
}

int main(int argc, char **argv) {
    struct options options = parse_options(argc, argv);
    struct ba_run run = {.in = read_ba(options.path)};
    run.J = new_jacobian(&run.in);
    run.reproj_err = checked_malloc(sizeof(double) * 2 * run.in.p);
    run.w_err = checked_malloc(sizeof(double) * run.in.p);
    printf("input n=%d m=%d p=%d\n", run.in.n, run.in.m, run.in.p);
    struct benchmark benchmark = {run_objective, run_jacobian, entry_error, &run};
    run_benchmark(&options, benchmark, CHECKED_ENTRIES);
    return 0;
}
