/* Calibrating a heat rod: how far is a guess of the conductivities from observations? */
#include <stdio.h>
#include "model.h"

#define CELLS 8
#define STEPS 50
#define DT 0.05

int main(void) {
    double truth[CELLS], guess[CELLS], observed[CELLS];
    for (int i = 0; i < CELLS; i++) {
        truth[i] = 0.5 + 0.1 * i;
        guess[i] = 0.8;
    }
    struct rod r;
    rod_init(&r, CELLS, STEPS, DT);
    rod_simulate(&r, truth);
    for (int i = 0; i < CELLS; i++)
        observed[i] = r.temperature[i];
    rod_free(&r);

    printf("loss(truth) = %.17g\n", calibration_loss(truth, observed, CELLS, STEPS, DT));
    printf("loss(guess) = %.17g\n", calibration_loss(guess, observed, CELLS, STEPS, DT));
    return 0;
}
