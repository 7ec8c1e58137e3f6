/* Readers of the ADBench input text formats (GMM, BA, LSTM); see FileFormat.md of the data. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adbench.h"
#include "ba.h"
#include "gmm.h"
#include "lstm.h"

static void malformed(const char *path) {
    fprintf(stderr, "%s: not in the expected ADBench format\n", path);
    exit(1);
}

/* Opens an input and reads the three sizes that start every format. */
static FILE *open_input(const char *path, int sizes[3]) {
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "cannot open %s\n", path);
        exit(1);
    }
    if (fscanf(f, "%d %d %d", &sizes[0], &sizes[1], &sizes[2]) != 3)
        malformed(path);
    return f;
}

static double *read_doubles(FILE *f, const char *path, long count) {
    double *out = checked_malloc(sizeof(double) * count);
    for (long i = 0; i < count; i++)
        if (fscanf(f, "%lf", &out[i]) != 1)
            malformed(path);
    return out;
}

/* A buffer of `copies` copies of the `size` values in `first`; frees `first`. */
static double *replicate(double *first, long size, long copies) {
    double *out = checked_malloc(sizeof(double) * size * copies);
    for (long i = 0; i < copies; i++)
        memcpy(&out[i * size], first, sizeof(double) * size);
    free(first);
    return out;
}

struct gmm_input read_gmm(const char *path) {
    struct gmm_input in;
    int sizes[3];
    FILE *f = open_input(path, sizes);
    in.d = sizes[0], in.k = sizes[1], in.n = sizes[2];
    long icf_size = (long)in.d * (in.d + 1) / 2;
    in.alphas = read_doubles(f, path, in.k);
    in.means = read_doubles(f, path, (long)in.d * in.k);
    in.icf = read_doubles(f, path, icf_size * in.k);
    in.x = read_doubles(f, path, (long)in.d * in.n);
    if (fscanf(f, "%lf %d", &in.gamma, &in.m) != 2)
        malformed(path);
    fclose(f);
    return in;
}

struct ba_input read_ba(const char *path) {
    struct ba_input in;
    int sizes[3];
    FILE *f = open_input(path, sizes);
    in.n = sizes[0], in.m = sizes[1], in.p = sizes[2];
    in.cams = replicate(read_doubles(f, path, BA_CAM_PARAMS), BA_CAM_PARAMS, in.n);
    in.X = replicate(read_doubles(f, path, 3), 3, in.m);
    in.w = replicate(read_doubles(f, path, 1), 1, in.p);
    in.feats = replicate(read_doubles(f, path, 2), 2, in.p);
    in.obs = checked_malloc(sizeof(int) * 2 * (long)in.p);
    for (long i = 0; i < in.p; i++) {
        in.obs[2 * i] = (int)(i % in.n);
        in.obs[2 * i + 1] = (int)(i % in.m);
    }
    fclose(f);
    return in;
}

struct lstm_input read_lstm(const char *path) {
    struct lstm_input in;
    int sizes[3];
    FILE *f = open_input(path, sizes);
    in.l = sizes[0], in.c = sizes[1], in.b = sizes[2];
    in.main_params = read_doubles(f, path, 2L * in.l * 4 * in.b);
    in.extra_params = read_doubles(f, path, 3L * in.b);
    in.state = read_doubles(f, path, 2L * in.l * in.b);
    in.sequence = read_doubles(f, path, (long)in.c * in.b);
    fclose(f);
    return in;
}
