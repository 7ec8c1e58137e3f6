/* ADBench LSTM objective: l stacked LSTM layers of hidden size b read a sequence of c characters
 * (b-dimensional vectors); each step predicts the next character, and the loss is the mean
 * negative log-likelihood of the true next characters under the prediction's log-softmax
 * (ADBench's variant: the normalizer is log(2 + sum exp)).
 *
 * Per layer and element i, with input x and state (h, s):
 *   forget = sigma(x_i wf_i + bf_i), ingate = sigma(h_i wi_i + bi_i),
 *   outgate = sigma(x_i wo_i + bo_i), change = tanh(h_i wc_i + bc_i),
 *   s_i = s_i forget + ingate change, h_i = outgate tanh(s_i).
 */
#include <math.h>
#include <stdlib.h>

#include "lstm.h"

/* With the sequence passed as dup (ADBENCH_DATA_AS_DUP, see adbench.h) ltoad cannot yet
 * differentiate the loss loop once the optimizer has unrolled it: the shadow of `ygold` would be
 * needed in a block laid out before the one defining it. That build keeps the loop rolled.
 */
#ifdef ADBENCH_DATA_AS_DUP
#define LOSS_LOOP _Pragma("clang loop unroll(disable)")
#else
#define LOSS_LOOP
#endif

static double sigmoid(double x) {
    return 1.0 / (1.0 + exp(-x));
}

static double logsumexp(const double *x, int n) {
    double s = 0.0;
    for (int i = 0; i < n; i++)
        s += exp(x[i]);
    return log(s + 2.0);
}

/* One layer. params: weights (forget, ingate, outgate, change; b each) then biases (same order). */
static void lstm_model(int b, const double *params, double *hidden, double *cell, const double *input) {
    const double *weight = params, *bias = params + 4 * b;
    for (int i = 0; i < b; i++) {
        double forget = sigmoid(input[i] * weight[i] + bias[i]);
        double ingate = sigmoid(hidden[i] * weight[b + i] + bias[b + i]);
        double outgate = sigmoid(input[i] * weight[2 * b + i] + bias[2 * b + i]);
        double change = tanh(hidden[i] * weight[3 * b + i] + bias[3 * b + i]);
        cell[i] = cell[i] * forget + ingate * change;
        hidden[i] = outgate * tanh(cell[i]);
    }
}

/* Runs the input through the layers (updating state) and writes the prediction to output. */
static void lstm_predict(int l, int b, const double *main_params, const double *extra_params,
                         double *state, const double *input, double *output) {
    const double *in_weight = extra_params, *out_weight = extra_params + b, *out_bias = extra_params + 2 * b;
    for (int i = 0; i < b; i++)
        output[i] = input[i] * in_weight[i];
    const double *layer_output = output;
    for (int layer = 0; layer < l; layer++) {
        double *hidden = &state[2 * b * layer], *cell = hidden + b;
        lstm_model(b, &main_params[8 * b * layer], hidden, cell, layer_output);
        layer_output = hidden;
    }
    for (int i = 0; i < b; i++)
        output[i] = layer_output[i] * out_weight[i] + out_bias[i];
}

double lstm_objective(int l, int c, int b, const double *main_params, const double *extra_params,
                      const double *state, const double *sequence) {
    double *work_state = malloc(sizeof(double) * 2 * l * b);
    double *ypred = malloc(sizeof(double) * b);
    for (int i = 0; i < 2 * l * b; i++)    /* a loop: ltoad's AD before optimization rejects this memcpy */
        work_state[i] = state[i];
    double total = 0.0;
    for (int t = 0; t < c - 1; t++) {
        lstm_predict(l, b, main_params, extra_params, work_state, &sequence[t * b], ypred);
        double lse = logsumexp(ypred, b);
        const double *ygold = &sequence[(t + 1) * b];
        LOSS_LOOP
        for (int i = 0; i < b; i++)
            total += ygold[i] * (ypred[i] - lse);
    }
    free(ypred);
    free(work_state);
    return -total / ((c - 1) * b);
}
