/* The spring description shared by the units. */
struct spring {
    int from, to;
    double rest;
    double stiffness;
};
double spring_energy(const struct spring *s, const double *pos);
