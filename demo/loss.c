#include "model.h"

double misfit(const struct rod *r, const double *observed) {
    double sum = 0.0;
    for (int i = 0; i < r->cells; i++) {
        double d = r->temperature[i] - observed[i];
        sum += d * d;
    }
    return 0.5 * sum;
}

double calibration_loss(const double *conductivity, const double *observed,
                        int cells, int steps, double dt) {
    struct rod r;
    rod_init(&r, cells, steps, dt);
    rod_simulate(&r, conductivity);
    double loss = misfit(&r, observed);
    rod_free(&r);
    return loss;
}
