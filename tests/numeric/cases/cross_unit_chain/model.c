/* The model and its loss; calls the activation in a third unit. */
#include <math.h>
double activation(double v);
double predict(const double *theta, double t) {
    return theta[0] + theta[1] * activation(theta[2] * t + theta[3]);
}
double model_loss(const double *theta, const double *data, int m) {
    double loss = 0.0;
    for (int i = 0; i < m; i++) {
        double r = predict(theta, data[i]) - activation(data[i]);
        loss += r * r;
    }
    return loss / m;
}
