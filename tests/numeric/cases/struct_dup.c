/* A struct of doubles and an int passed as enzyme_dup with a shadow struct. */
#define N 4
static double X0[N] = {0.6, 1.4, -0.9, 0.3};
#include "harness.h"

struct body {
    double pos[2];
    int tag;
    double mass;
    double charge;
};

double potential(const struct body *b, int count) {
    double e = 0.0;
    for (int i = 0; i < count; i++)
        for (int j = i + 1; j < count; j++) {
            double dx = b[i].pos[0] - b[j].pos[0], dy = b[i].pos[1] - b[j].pos[1];
            double r = sqrt(dx * dx + dy * dy + 0.05);
            e += (b[i].tag == b[j].tag ? 1.0 : -1.0) * b[i].charge * b[j].charge / r
                 + 0.1 * b[i].mass * r;
        }
    return e;
}
static void fill(struct body *b, const double *x) {
    for (int i = 0; i < 3; i++) {
        b[i].pos[0] = i * 0.8 + (i == 0 ? x[0] : 0.0);
        b[i].pos[1] = (i == 1 ? x[1] : 0.3 * i);
        b[i].tag = i % 2;
        b[i].mass = 1.0 + (i == 0 ? x[2] : 0.0);
        b[i].charge = 0.5 + (i == 0 ? x[3] : 0.2 * i);
    }
}
double objective(double *x) {
    struct body b[3];
    fill(b, x);
    return potential(b, 3);
}
void gradient(double *x, double *g) {
    struct body b[3], db[3];
    fill(b, x);
    memset(db, 0, sizeof db);
    __enzyme_autodiff((void *)potential, enzyme_dup, b, db, enzyme_const, 3);
    g[0] = db[0].pos[0]; g[1] = db[1].pos[1]; g[2] = db[0].mass; g[3] = db[0].charge;
}
