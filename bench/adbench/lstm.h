/* ADBench LSTM: stacked LSTM layers predicting the next character of a sequence, cross-entropy loss. */
#ifndef LSTM_H
#define LSTM_H

struct lstm_input {
    int l, c, b;            /* layers, sequence length, character bits (hidden size) */
    double *main_params;    /* 2*l*4*b: per layer, gate weights (4b) then gate biases (4b) */
    double *extra_params;   /* 3*b: input weight, output weight, output bias */
    double *state;          /* 2*l*b: per layer, hidden then cell */
    double *sequence;       /* c*b */
};

/* Reads the ADBench text format (FileFormat.md, LSTM). */
struct lstm_input read_lstm(const char *path);

/* The loss; `state` is the initial state and is not modified. */
double lstm_objective(int l, int c, int b, const double *main_params, const double *extra_params,
                      const double *state, const double *sequence);

#endif
