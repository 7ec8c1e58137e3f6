/* Calibrating a heat rod: the loss of a guess of the conductivities, and its gradient.
 *
 * The gradient comes from __enzyme_autodiff, answered at link time by ltoad across the three
 * compilation units; central finite differences are printed next to it for comparison.
 */
#include <stdio.h>
#include "model.h"

#define CELLS 8
#define STEPS 50
#define DT 0.05

extern int enzyme_dup, enzyme_const;
double __enzyme_autodiff(void *, ...);

static double loss(const double *k, const double *observed) {
    return calibration_loss(k, observed, CELLS, STEPS, DT);
}

int main(void) {
    double truth[CELLS], guess[CELLS], observed[CELLS], gradient[CELLS] = {0};
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

    printf("loss(truth) = %.17g\n", loss(truth, observed));
    printf("loss(guess) = %.17g\n", loss(guess, observed));

    __enzyme_autodiff((void *)calibration_loss, enzyme_dup, guess, gradient,
                      enzyme_const, observed, enzyme_const, CELLS, enzyme_const, STEPS,
                      enzyme_const, DT);

    printf("%4s %24s %24s\n", "cell", "d loss / d k (ltoad)", "finite difference");
    for (int i = 0; i < CELLS; i++) {
        double h = 1e-6, saved = guess[i];
        guess[i] = saved + h;
        double up = loss(guess, observed);
        guess[i] = saved - h;
        double down = loss(guess, observed);
        guess[i] = saved;
        printf("%4d %24.12e %24.12e\n", i, gradient[i], (up - down) / (2 * h));
    }
    return 0;
}
