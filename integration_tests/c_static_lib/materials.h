#ifndef NUM_MATERIALS_H
#define NUM_MATERIALS_H

struct material {
    const char *name;
    double conductivity;  /* W / (m K) */
    double density;       /* kg / m^3 */
    double heat_capacity; /* J / (kg K) */
};

extern const struct material material_table[];
extern const int material_count;

const struct material *material_find(const char *name);
double material_diffusivity(const struct material *m);

#endif
