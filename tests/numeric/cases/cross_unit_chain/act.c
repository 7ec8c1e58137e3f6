/* The activation function, called from two other units. */
#include <math.h>
double activation(double v) { return v / (1.0 + exp(-v)); }
