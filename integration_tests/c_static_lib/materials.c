#include "materials.h"

#include <string.h>

const struct material material_table[] = {
    {"aluminium", 237.0, 2700.0, 897.0},
    {"copper", 401.0, 8960.0, 385.0},
    {"granite", 2.9, 2750.0, 790.0},
    {"iron", 80.4, 7874.0, 449.0},
    {"water", 0.6089, 997.0, 4184.0},
};

const int material_count = (int)(sizeof material_table / sizeof material_table[0]);

const struct material *material_find(const char *name)
{
    for (int i = 0; i < material_count; i++)
        if (strcmp(material_table[i].name, name) == 0)
            return &material_table[i];
    return NULL;
}

double material_diffusivity(const struct material *m)
{
    return m->conductivity / (m->density * m->heat_capacity);
}
