"""Generate a deterministic multi-file C project of numerical kernels, for link-time benchmarks.

The project has one header, `--files` translation units (`unit000.c`, ...) archived into
`libunits.a`, a `main.c` that runs every unit and prints checksums, and a Makefile that reads
CC, AR, CFLAGS and LDFLAGS like any other project. Each unit holds `--kernels` kernels drawn from
a fixed set of shapes (reductions, axpy, stencils, mat-vec, Horner polynomials, Newton
iterations, particle updates on structs, histograms, running statistics) with constants from a
seeded generator, and calls its predecessor's `mix` function so that calls cross files.

The same arguments always produce the same bytes. At the defaults (40 files, 9 kernels each) the
merged `clang-22 -O2 -flto` module is about 52k lines of IR; 160 files give about 200k.

    python scripts/gen_project.py OUTDIR [--files N] [--kernels K] [--seed S]
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

HEADER = """\
#ifndef KERNELS_H
#define KERNELS_H

struct vec3 { double x, y, z; };
struct particle { struct vec3 pos, vel; double mass; int kind; };
struct stats { double min, max, sum, sumsq; long count; };
struct grid { int nx, ny; double *cells; };
struct workspace {
    int n;
    double *a, *b, *c, *tmp;
    int *idx;
    int nparts;
    struct particle *parts;
    struct grid grid;
};

"""

MAIN = """\
#include <stdio.h>
#include <stdlib.h>
#include "kernels.h"

typedef double (*unit_fn)(struct workspace *);
static const unit_fn units[] = {
%(table)s
};

static double checksum(const double *v, int n) {
    double s = 0.0;
    for (int i = 0; i < n; ++i)
        s += v[i] * (double)(i %% 7 + 1);
    return s;
}

int main(void) {
    struct workspace w;
    w.n = 256;
    w.nparts = 48;
    w.a = malloc(sizeof(double) * w.n);
    w.b = malloc(sizeof(double) * w.n);
    w.c = malloc(sizeof(double) * w.n);
    w.tmp = malloc(sizeof(double) * w.n);
    w.idx = malloc(sizeof(int) * w.n);
    w.parts = malloc(sizeof(struct particle) * w.nparts);
    w.grid.nx = 16;
    w.grid.ny = 16;
    w.grid.cells = malloc(sizeof(double) * 256);
    for (int i = 0; i < w.n; ++i) {
        w.a[i] = (double)((i * 37) %% 101) / 101.0;
        w.b[i] = (double)((i * 53) %% 97) / 97.0 - 0.5;
        w.c[i] = 0.25;
        w.idx[i] = (i * 2654435761u) %% 1000;
        w.grid.cells[i] = (i %% 16 == 8) ? 1.0 : 0.0;
    }
    for (int p = 0; p < w.nparts; ++p) {
        struct vec3 pos = {0.1 * p, 0.05 * (p %% 5), -0.02 * p};
        struct vec3 vel = {0.0, 0.01 * (p %% 3), 0.0};
        w.parts[p].pos = pos;
        w.parts[p].vel = vel;
        w.parts[p].mass = 1.0 + 0.1 * (p %% 4);
        w.parts[p].kind = p %% 3;
    }
    double total = 0.0;
    for (int round = 0; round < 3; ++round)
        for (unsigned u = 0; u < sizeof units / sizeof units[0]; ++u) {
            double r = units[u](&w);
            total += r;
            if (round == 2 && u %% 8 == 0)
                printf("unit %%u: %%.17g\\n", u, r);
        }
    printf("total: %%.17g\\n", total);
    printf("arrays: %%.17g %%.17g %%.17g\\n", checksum(w.a, w.n), checksum(w.b, w.n), checksum(w.grid.cells, 256));
    free(w.a); free(w.b); free(w.c); free(w.tmp); free(w.idx); free(w.parts); free(w.grid.cells);
    return 0;
}
"""

MAKEFILE = """\
# Generated benchmark project. Override CC, AR, CFLAGS, LDFLAGS as usual.
CC ?= cc
AR ?= ar
CFLAGS ?= -O2
LDFLAGS ?=

UNIT_OBJS = %(objects)s

all: kernels

kernels: main.o libunits.a
\t$(CC) $(CFLAGS) $(LDFLAGS) -o $@ main.o -L. -lunits -lm

libunits.a: $(UNIT_OBJS)
\trm -f $@
\t$(AR) rcs $@ $(UNIT_OBJS)

%%.o: %%.c kernels.h
\t$(CC) -std=c11 $(CFLAGS) -c -o $@ $<

clean:
\trm -f kernels main.o libunits.a $(UNIT_OBJS)

.PHONY: all clean
"""


def _num(rng: random.Random, low: float, high: float) -> str:
    """A constant as C source, rounded so the text is short and stable."""
    return repr(round(rng.uniform(low, high), 6))


def dot_kernel(name: str, rng: random.Random) -> tuple[str, str]:
    body = f"""double {name}(const double *a, const double *b, int n) {{
    double s = 0.0;
    for (int i = 0; i < n; ++i)
        s += (a[i] * {_num(rng, 0.5, 1.5)} + b[i]) * (a[i] - {_num(rng, 0.0, 0.5)});
    return s / (double)n;
}}
"""
    return body, f"{name}(w->a, w->b, w->n)"


def axpy_kernel(name: str, rng: random.Random) -> tuple[str, str]:
    alpha = rng.uniform(0.1, 0.4)
    keep = rng.uniform(0.3, 0.95 - alpha)
    body = f"""double {name}(double *y, const double *x, int n) {{
    double s = 0.0;
    for (int i = 0; i < n; ++i) {{
        y[i] = {round(alpha, 6)!r} * x[i] + {round(keep, 6)!r} * y[i];
        s += y[i];
    }}
    return s;
}}
"""
    return body, f"{name}(w->c, w->a, w->n)"


def stencil_kernel(name: str, rng: random.Random) -> tuple[str, str]:
    body = f"""double {name}(struct grid *g, double *tmp) {{
    const int nx = g->nx, ny = g->ny;
    double *u = g->cells;
    for (int j = 1; j < ny - 1; ++j)
        for (int i = 1; i < nx - 1; ++i) {{
            int k = j * nx + i;
            tmp[k] = u[k] + {_num(rng, 0.05, 0.2)} * (u[k - 1] + u[k + 1] + u[k - nx] + u[k + nx] - 4.0 * u[k]);
        }}
    double s = 0.0;
    for (int j = 1; j < ny - 1; ++j)
        for (int i = 1; i < nx - 1; ++i) {{
            u[j * nx + i] = tmp[j * nx + i];
            s += tmp[j * nx + i];
        }}
    return s;
}}
"""
    return body, f"{name}(&w->grid, w->tmp)"


def matvec_kernel(name: str, rng: random.Random) -> tuple[str, str]:
    size = rng.choice((8, 12, 16))
    body = f"""double {name}(double *y, const double *m, const double *x) {{
    double s = 0.0;
    for (int r = 0; r < {size}; ++r) {{
        double acc = 0.0;
        for (int c = 0; c < {size}; ++c)
            acc += m[r * {size} + c] * x[c];
        y[r] = acc * {_num(rng, 0.01, 0.1)};
        s += y[r];
    }}
    return s;
}}
"""
    return body, f"{name}(w->tmp, w->a, w->b)"


def horner_kernel(name: str, rng: random.Random) -> tuple[str, str]:
    degree = rng.randint(5, 9)
    coefficients = ", ".join(_num(rng, -1.0, 1.0) for _ in range(degree + 1))
    body = f"""static const double {name}_coef[{degree + 1}] = {{{coefficients}}};

double {name}(const double *x, int n) {{
    double s = 0.0;
    for (int i = 0; i < n; ++i) {{
        double p = 0.0;
        for (int d = 0; d < {degree + 1}; ++d)
            p = p * x[i] + {name}_coef[d];
        s += p;
    }}
    return s / (double)n;
}}
"""
    return body, f"{name}(w->a, w->n)"


def newton_kernel(name: str, rng: random.Random) -> tuple[str, str]:
    body = f"""double {name}(const double *c, int n) {{
    double s = 0.0;
    for (int i = 0; i < n; i += 4) {{
        double target = 1.0 + c[i] * c[i];
        double x = target;
        for (int it = 0; it < 40; ++it) {{
            double f = x * x * x - {_num(rng, 0.5, 2.0)} * target;
            double step = f / (3.0 * x * x);
            x -= step;
            if (fabs(step) < 1e-12)
                break;
        }}
        s += x;
    }}
    return s;
}}
"""
    return body, f"{name}(w->b, w->n)"


def particle_kernel(name: str, rng: random.Random) -> tuple[str, str]:
    body = f"""static struct vec3 {name}_axpy(struct vec3 a, double t, struct vec3 b) {{
    struct vec3 r = {{a.x + t * b.x, a.y + t * b.y, a.z + t * b.z}};
    return r;
}}

double {name}(struct particle *p, int n) {{
    const double dt = {_num(rng, 0.001, 0.01)};
    double energy = 0.0;
    for (int i = 0; i < n; ++i) {{
        struct vec3 q = p[i].pos;
        double r = sqrt(q.x * q.x + q.y * q.y + q.z * q.z + 0.01);
        double strength = exp(-r) * (p[i].kind == 0 ? {_num(rng, 0.5, 1.0)} : {_num(rng, -1.0, -0.2)}) / p[i].mass;
        struct vec3 force = {{-q.x * strength / r, -q.y * strength / r, -q.z * strength / r}};
        p[i].vel = {name}_axpy(p[i].vel, dt, force);
        p[i].pos = {name}_axpy(p[i].pos, dt, p[i].vel);
        energy += 0.5 * p[i].mass * (p[i].vel.x * p[i].vel.x + p[i].vel.y * p[i].vel.y + p[i].vel.z * p[i].vel.z);
    }}
    return energy;
}}
"""
    return body, f"{name}(w->parts, w->nparts)"


def histogram_kernel(name: str, rng: random.Random) -> tuple[str, str]:
    bins = rng.choice((8, 16, 32))
    body = f"""double {name}(const int *v, int n) {{
    int bins[{bins}] = {{0}};
    for (int i = 0; i < n; ++i) {{
        unsigned h = (unsigned)v[i] * {rng.randrange(3, 1 << 20, 2)}u;
        bins[(h >> 7) % {bins}u] += 1 + (v[i] & 3);
    }}
    long weighted = 0;
    for (int b = 0; b < {bins}; ++b)
        weighted += (long)bins[b] * (b + 1);
    return (double)weighted / (double)n;
}}
"""
    return body, f"{name}(w->idx, w->n)"


def stats_kernel(name: str, rng: random.Random) -> tuple[str, str]:
    body = f"""static void {name}_add(struct stats *st, double x) {{
    if (x < st->min) st->min = x;
    if (x > st->max) st->max = x;
    st->sum += x;
    st->sumsq += x * x;
    st->count += 1;
}}

double {name}(const double *a, const double *b, int n) {{
    struct stats st = {{1e300, -1e300, 0.0, 0.0, 0}};
    for (int i = 0; i < n; ++i)
        {name}_add(&st, a[i] * {_num(rng, 0.5, 2.0)} - b[i]);
    double mean = st.sum / (double)st.count;
    return (st.max - st.min) + st.sumsq / (double)st.count - mean * mean;
}}
"""
    return body, f"{name}(w->a, w->c, w->n)"


KERNEL_SHAPES = (dot_kernel, axpy_kernel, stencil_kernel, matvec_kernel, horner_kernel,
                 newton_kernel, particle_kernel, histogram_kernel, stats_kernel)


def unit_source(index: int, kernels: int, rng: random.Random) -> tuple[str, list[str]]:
    """The C source of unit `index` and the prototypes it exports."""
    prefix = f"u{index:03d}"
    bodies, calls = [], []
    for k in range(kernels):
        shape = KERNEL_SHAPES[(index + k) % len(KERNEL_SHAPES)] if k < len(KERNEL_SHAPES) \
            else rng.choice(KERNEL_SHAPES)
        body, call = shape(f"{prefix}_{shape.__name__.removesuffix('_kernel')}{k}", rng)
        bodies.append(body)
        calls.append(call)
    previous = f"u{index - 1:03d}_mix" if index > 0 else None
    mix = f"""double {prefix}_mix(double x, double y) {{
    return {_num(rng, 0.3, 0.7)} * x + y / (1.0 + fabs(y));
}}
"""
    combine = "".join(
        f"    acc = {previous or prefix + '_mix'}(acc, {call});\n" for call in calls)
    run = f"""double unit{index:03d}_run(struct workspace *w) {{
    double acc = 0.0;
{combine}    return acc;
}}
"""
    text = '#include <math.h>\n#include "kernels.h"\n\n' + "\n".join(bodies + [mix, run])
    exported = [f"double {prefix}_mix(double x, double y);", f"double unit{index:03d}_run(struct workspace *w);"]
    return text, exported


def generate(outdir: Path, files: int = 40, kernels: int = 9, seed: int = 1) -> None:
    """Write the project into outdir (created if needed)."""
    rng = random.Random(seed)
    outdir.mkdir(parents=True, exist_ok=True)
    prototypes = []
    for index in range(files):
        text, exported = unit_source(index, kernels, rng)
        (outdir / f"unit{index:03d}.c").write_text(text)
        prototypes += exported
    (outdir / "kernels.h").write_text(HEADER + "\n".join(prototypes) + "\n\n#endif\n")
    table = "\n".join(f"    unit{index:03d}_run," for index in range(files))
    (outdir / "main.c").write_text(MAIN % {"table": table})
    objects = " ".join(f"unit{index:03d}.o" for index in range(files))
    (outdir / "Makefile").write_text(MAKEFILE % {"objects": objects})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("outdir", type=Path)
    parser.add_argument("--files", type=int, default=40, help="translation units (default 40)")
    parser.add_argument("--kernels", type=int, default=9, help="kernels per unit (default 9)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    generate(args.outdir, args.files, args.kernels, args.seed)


if __name__ == "__main__":
    main()
