/* Builds the springs and sums their energies (spring.c). */
#include "spring.h"
double total_energy(const double *x, int n) {
    struct spring springs[8];
    int m = 0;
    for (int i = 0; i + 1 < n; i++) {
        springs[m].from = i; springs[m].to = i + 1;
        springs[m].rest = 0.5 + 0.1 * i; springs[m].stiffness = 1.0 + i;
        m++;
    }
    springs[m].from = 0; springs[m].to = n - 1; springs[m].rest = 1.0; springs[m].stiffness = 0.3;
    m++;
    double e = 0.0;
    for (int k = 0; k < m; k++) e += spring_energy(&springs[k], x);
    return e;
}
