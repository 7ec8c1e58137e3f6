"""Generate a deterministic multi-file C project of numerical kernels, for link-time benchmarks.

The project has one header, `--files` translation units (`unit000.c`, ...) archived into
`libunits.a`, a `main.c` that runs every unit and prints checksums, and a Makefile that reads
CC, AR, CFLAGS and LDFLAGS like any other project. Each unit holds `--kernels` kernels drawn from
a fixed set of shapes (reductions, axpy, stencils, mat-vec, Horner polynomials, Newton
iterations, particle updates on structs, histograms, running statistics) with constants from a
seeded generator, and calls its predecessor's `mix` function so that calls cross files.

With --request the project also differentiates something deep in its call graph: main asks
`__enzyme_autodiff` (Enzyme's C API) for the gradient of `objective(x, n)`, which calls a chain
of eleven functions, each in a different unit spread over the project (smoothing, reductions,
sin/exp/log/sqrt, loops over arrays, a state struct updated through a pointer, a struct passed
by value, nested loops), up to four calls deep. Everything else (kernels, `mix` bookkeeping,
checksums, I/O) stays inactive. main prints the gradient next to central finite differences of
`objective` for a few components and a line `max relative error <value>`. Without --request the
output is byte for byte what it was before the option existed.

The same arguments always produce the same bytes. Lines of IR of the merged
`clang-22 -O2 -flto` module (the units' and main's bitcode joined by llvm-link-22), measured:

    files  kernels  IR lines
       40        9       52k  (the defaults; scripts/bench's generated-50k)
      200        3     99543
      200        4    130713  (131442 with --request; scripts/bench --scale uses this size)
      200        5    163409
      200        9    289291

so 200 files reach 100k lines from 4 kernels per unit on, and at the default of 9.

    python scripts/gen_project.py OUTDIR [--files N] [--kernels K] [--seed S] [--request]
"""

from __future__ import annotations

import argparse
import functools
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
%(request)s
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
%(check)s    free(w.a); free(w.b); free(w.c); free(w.tmp); free(w.idx); free(w.parts); free(w.grid.cells);
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


# The differentiable chain added by --request. `objective` and the functions it calls (directly
# or through others, up to four calls deep) each live in a different unit, spread over the
# project; nothing else in the project calls them and they call nothing else of the project.
# Four of them are noinline so that calls between units survive the link-time optimizer and the
# derivative has callee derivatives of its own (the others are inlined into their callers).
CHAIN_HEADER = """\
/* The differentiable chain: objective(x, n) and everything it calls. */
#define CHAIN_MAX 64
struct chain_model { double scale, bias, rate, decay; };
struct chain_state { double level, trend, energy; };
struct chain_features { double mean, spread, peak; };
double objective(const double *x, int n);
void chain_smooth(const double *x, double *y, int n);
double chain_mean(const double *y, int n);
double chain_norm(const double *y, int n);
void chain_features(const double *y, int n, struct chain_features *f);
double chain_poly(double t);
double chain_transform(double v, const struct chain_model *m);
void chain_step(struct chain_state *s, double v, const struct chain_model *m);
double chain_integrate(const double *y, int n, const struct chain_model *m);
double chain_pairwise(const double *y, int n);
double chain_logsumexp(const double *y, int n);
double chain_combine(struct chain_features f, double a, double b);
"""

GRADIENT_CHECK = """\
#include <math.h>

extern int enzyme_dup, enzyme_const;
double __enzyme_autodiff(void *, ...);

/* The gradient of objective by __enzyme_autodiff, checked against central differences. */
static void check_gradient(void) {
    enum { N = %(n)d };
    double x[N], dx[N], xp[N];
    for (int i = 0; i < N; ++i) {
        x[i] = 0.05 * (double)((i * 7) %% 11) - 0.25 + 0.01 * (double)i;
        dx[i] = 0.0;
    }
    __enzyme_autodiff((void *)objective, enzyme_dup, x, dx, enzyme_const, N);
    printf("objective: %%.17g\\n", objective(x, N));
    double worst = 0.0;
    for (int k = 0; k < N; k += %(stride)d) {
        const double h = 1e-6;
        for (int i = 0; i < N; ++i)
            xp[i] = x[i];
        xp[k] = x[k] + h;
        double up = objective(xp, N);
        xp[k] = x[k] - h;
        double down = objective(xp, N);
        double fd = (up - down) / (2.0 * h);
        double err = fabs(dx[k] - fd) / fmax(fabs(fd), 1e-3);
        if (err > worst)
            worst = err;
        printf("gradient[%%d]: ad %%.12e fd %%.12e\\n", k, dx[k], fd);
    }
    printf("max relative error %%.3e\\n", worst);
}
"""

CHAIN_POINTS = 24


def chain_functions(rng: random.Random) -> list[tuple[str, str]]:
    """The chain's functions as (name, C definition), `objective` first."""
    n = functools.partial(_num, rng)   # n(low, high): a constant for the C source
    coefficients = ", ".join(n(-0.5, 0.5) for _ in range(6))
    return [
        ("objective", f"""double objective(const double *x, int n) {{
    double y[CHAIN_MAX];
    struct chain_model m = {{{n(0.6, 1.2)}, {n(-0.2, 0.2)}, {n(0.3, 0.6)}, {n(0.6, 0.9)}}};
    struct chain_features f;
    if (n > CHAIN_MAX)
        n = CHAIN_MAX;
    chain_smooth(x, y, n);
    chain_features(y, n, &f);
    double a = chain_integrate(y, n, &m);
    double b = chain_pairwise(y, n) + {n(0.2, 0.5)} * chain_logsumexp(y, n);
    return chain_combine(f, a, b);
}}
"""),
        ("chain_smooth", f"""void chain_smooth(const double *x, double *y, int n) {{
    for (int i = 0; i < n; ++i) {{
        int left = i > 0 ? i - 1 : 0, right = i < n - 1 ? i + 1 : n - 1;
        y[i] = {n(0.1, 0.3)} * x[left] + {n(0.4, 0.6)} * x[i] + {n(0.1, 0.3)} * x[right];
    }}
}}
"""),
        ("chain_mean", """double chain_mean(const double *y, int n) {
    double s = 0.0;
    for (int i = 0; i < n; ++i)
        s += y[i];
    return s / (double)n;
}
"""),
        ("chain_norm", f"""double chain_norm(const double *y, int n) {{
    double s = {n(0.001, 0.01)};
    for (int i = 0; i < n; ++i)
        s += y[i] * y[i];
    return sqrt(s);
}}
"""),
        ("chain_features", f"""__attribute__((noinline)) void chain_features(const double *y, int n, struct chain_features *f) {{
    double centred[CHAIN_MAX];
    double mean = chain_mean(y, n);
    for (int i = 0; i < n; ++i)
        centred[i] = y[i] - mean;
    f->mean = mean;
    f->spread = chain_norm(centred, n) / sqrt((double)n);
    double soft = 0.0;
    for (int i = 0; i < n; ++i)
        soft += exp({n(2.0, 4.0)} * y[i]);
    f->peak = log(soft / (double)n);
}}
"""),
        ("chain_poly", f"""static const double chain_poly_coef[6] = {{{coefficients}}};

double chain_poly(double t) {{
    double p = 0.0;
    for (int d = 0; d < 6; ++d)
        p = p * t + chain_poly_coef[d];
    return p;
}}
"""),
        ("chain_transform", f"""__attribute__((noinline)) double chain_transform(double v, const struct chain_model *m) {{
    double t = m->scale * v + m->bias;
    return sqrt(1.0 + t * t) + {n(0.2, 0.5)} * sin({n(1.0, 2.0)} * t) + log(1.0 + exp(-t * t))
        + chain_poly(0.5 * t);
}}
"""),
        ("chain_step", f"""__attribute__((noinline)) void chain_step(struct chain_state *s, double v, const struct chain_model *m) {{
    double previous = s->level;
    s->level = m->decay * s->level + (1.0 - m->decay) * v;
    s->trend = m->rate * s->trend + (1.0 - m->rate) * (s->level - previous);
    s->energy += s->level * s->level + {n(0.5, 2.0)} * s->trend * s->trend;
}}
"""),
        ("chain_integrate", f"""double chain_integrate(const double *y, int n, const struct chain_model *m) {{
    struct chain_state s = {{0.0, 0.0, 0.0}};
    double acc = 0.0;
    for (int i = 0; i < n; ++i) {{
        double v = chain_transform(y[i], m);
        chain_step(&s, v, m);
        acc += {n(0.1, 0.4)} * v * cos(0.1 * (double)i);
    }}
    return acc / (double)n + s.energy / (double)n + s.level;
}}
"""),
        ("chain_pairwise", f"""__attribute__((noinline)) double chain_pairwise(const double *y, int n) {{
    double s = 0.0;
    for (int i = 0; i < n; ++i)
        for (int j = i + 1; j < n; ++j) {{
            double d = y[i] - y[j];
            s += exp(-{n(1.0, 3.0)} * d * d);
        }}
    return s / (double)(n * n);
}}
"""),
        ("chain_logsumexp", """double chain_logsumexp(const double *y, int n) {
    double top = y[0];
    for (int i = 1; i < n; ++i)
        if (y[i] > top)
            top = y[i];
    double s = 0.0;
    for (int i = 0; i < n; ++i)
        s += exp(y[i] - top);
    return top + log(s);
}
"""),
        ("chain_combine", f"""double chain_combine(struct chain_features f, double a, double b) {{
    return {n(0.5, 1.5)} * f.mean + f.spread * f.spread + {n(0.1, 0.3)} * f.peak + {n(0.2, 0.6)} * a + b
        + sqrt(a * a + b * b + 1.0);
}}
"""),
    ]


def chain_placement(files: int, count: int) -> list[int]:
    """The unit of each chain function: spread evenly over the project."""
    return [((2 * slot + 1) * files) // (2 * count) for slot in range(count)]


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


def generate(outdir: Path, files: int = 40, kernels: int = 9, seed: int = 1, request: bool = False) -> None:
    """Write the project into outdir (created if needed); `request` adds the differentiable chain."""
    rng = random.Random(seed)
    outdir.mkdir(parents=True, exist_ok=True)
    texts, prototypes = [], []
    for index in range(files):
        text, exported = unit_source(index, kernels, rng)
        texts.append(text)
        prototypes += exported
    header = HEADER + "\n".join(prototypes) + "\n"
    if request:
        functions = chain_functions(random.Random(f"chain-{seed}"))
        for unit, (_, definition) in zip(chain_placement(files, len(functions)), functions):
            texts[unit] += "\n" + definition
        header += "\n" + CHAIN_HEADER
    for index, text in enumerate(texts):
        (outdir / f"unit{index:03d}.c").write_text(text)
    (outdir / "kernels.h").write_text(header + "\n#endif\n")
    table = "\n".join(f"    unit{index:03d}_run," for index in range(files))
    check = GRADIENT_CHECK % {"n": CHAIN_POINTS, "stride": 5} if request else ""
    (outdir / "main.c").write_text(MAIN % {"table": table, "request": check,
                                           "check": "    check_gradient();\n" if request else ""})
    objects = " ".join(f"unit{index:03d}.o" for index in range(files))
    (outdir / "Makefile").write_text(MAKEFILE % {"objects": objects})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("outdir", type=Path)
    parser.add_argument("--files", type=int, default=40, help="translation units (default 40)")
    parser.add_argument("--kernels", type=int, default=9, help="kernels per unit (default 9)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--request", action="store_true",
                        help="add objective() and its call chain, differentiated from main with __enzyme_autodiff")
    args = parser.parse_args()
    if args.files < 1 or args.kernels < 0:
        parser.error("--files must be at least 1 and --kernels at least 0")
    generate(args.outdir, args.files, args.kernels, args.seed, args.request)


if __name__ == "__main__":
    main()
