#include <math.h>
double pair(double a, double b) {
    double d = a - b;
    return d * d + 0.1 * cos(a * b);
}
