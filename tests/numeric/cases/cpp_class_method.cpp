// A class with private state whose const method is called from the differentiated function.
#define N 3
static double X0[N] = {0.9, -0.35, 1.4};
#include "harness.h"

class Oscillator {
public:
    Oscillator(double damping, int steps) : damping_(damping), steps_(steps) {}
    double energy_after(double k, double x0, double v0) const {
        double x = x0, v = v0;
        for (int i = 0; i < steps_; i++) {
            double a = -k * x - damping_ * v;
            v += dt_ * a;
            x += dt_ * v;
        }
        return 0.5 * v * v + 0.5 * k * x * x;
    }

private:
    double damping_;
    int steps_;
    static constexpr double dt_ = 0.05;
};

double simulate(const double *p) {
    Oscillator osc(0.2, 30);
    return osc.energy_after(p[0] * p[0] + 0.5, p[1], p[2]);
}
double objective(double *x) { return simulate(x); }
void gradient(double *x, double *g) { __enzyme_autodiff((void *)simulate, enzyme_dup, x, g); }
