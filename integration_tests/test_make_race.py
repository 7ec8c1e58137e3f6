"""A generated 40-unit C project built with make -j2, twice at the same time, through ltoad.

Two static libraries and three programs are built in parallel within each tree, and both trees
are built concurrently with one shared TMPDIR. Any fixed temporary file name in ltoad (in the
output directory or in TMPDIR) would make the builds trample each other.
"""

import subprocess
from pathlib import Path

import pytest

from harness import (assert_linked_by_ltoad, assert_same_output, failure_report, ltoad_toolchain, make,
                     reference_toolchain, run_program, verbose_env)

UNITS = 40
LOW = UNITS // 2  # units [0, LOW) go into libunits_low.a, the rest into libunits_high.a
PROGRAMS = ("sweep", "chain", "table")

# One shape per unit, cycling; {v} is the argument expression.
SHAPES = (
    "sin({v}) + 0.5 * cos(2.0 * {v})",
    "exp(-0.25 * {v} * {v})",
    "tanh({v}) * (1.0 + {v})",
    "atan({v}) / (1.0 + fabs({v}))",
    "sqrt(1.0 + {v} * {v})",
    "log1p(fabs({v})) - 0.5 * {v}",
    "cbrt({v}) + hypot({v}, 1.5)",
    "erf({v}) * cos({v})",
)

HEADER = """#ifndef UNITS_H
#define UNITS_H

typedef double (*unit_fn)(double);

struct unit_entry {
    const char *name;
    unit_fn fn;
    const double *coeffs;
};

#define UNIT_COUNT %d
extern const struct unit_entry unit_table[UNIT_COUNT];

%s
#endif
"""

UNIT = """#include <math.h>

#include "units.h"

const double unit_{i:02d}_coeffs[4] = {{{c0:.6f}, {c1:.6f}, {c2:.6f}, {c3:.6f}}};

static double shape(double v)
{{
    return {shape};
}}

double unit_{i:02d}(double x)
{{
    double acc = 0.0;
    for (int k = 0; k < 4; k++)
        acc = acc * x + unit_{i:02d}_coeffs[k];
    return shape(0.1 * acc){previous};
}}
"""

SWEEP = """#include <stdio.h>

#include "units.h"

int main(void)
{
    for (int u = 0; u < UNIT_COUNT; u++) {
        double sum = 0.0;
        for (int k = -20; k <= 20; k++)
            sum += unit_table[u].fn(0.1 * k);
        printf("%s sum=%.17g at1=%.17g\\n", unit_table[u].name, sum, unit_table[u].fn(1.0));
    }
    return 0;
}
"""

CHAIN = """#include <stdio.h>

#include "units.h"

int main(void)
{
    double x = 0.5;
    for (int round = 0; round < 3; round++)
        for (int u = UNIT_COUNT - 1; u >= 0; u--) {
            x = unit_table[u].fn(x) / (1.0 + x * x);
            if (u % 10 == 0)
                printf("round %d after %s x=%.17g\\n", round, unit_table[u].name, x);
        }
    return 0;
}
"""

TABLE = """#include <stdio.h>

#include "units.h"

int main(void)
{
    double total = 0.0;
    for (int u = 0; u < UNIT_COUNT; u++) {
        const double *c = unit_table[u].coeffs;
        total += c[0] - c[1] + c[2] - c[3];
        printf("%s coeffs %.17g %.17g %.17g %.17g\\n", unit_table[u].name, c[0], c[1], c[2], c[3]);
    }
    printf("alternating total=%.17g\\n", total);
    return 0;
}
"""

MAKEFILE = """CC ?= cc
AR ?= ar
CFLAGS ?= -O2
LDFLAGS ?=

LOW_OBJS = {low}
HIGH_OBJS = {high}
PROGRAMS = {programs}

all: $(PROGRAMS)

libunits_low.a: $(LOW_OBJS)
\trm -f $@
\t$(AR) rcs $@ $(LOW_OBJS)

libunits_high.a: $(HIGH_OBJS)
\trm -f $@
\t$(AR) rcs $@ $(HIGH_OBJS)

# Each program has its own main object and shares table.o; high units call into low ones.
$(PROGRAMS): %: main_%.o table.o libunits_high.a libunits_low.a
\t$(CC) $(CFLAGS) $(LDFLAGS) -o $@ main_$@.o table.o -L. -lunits_high -lunits_low -lm

%.o: %.c units.h
\t$(CC) -std=c11 $(CFLAGS) -c -o $@ $<

clean:
\trm -f $(PROGRAMS) *.o *.a

.PHONY: all clean
"""


def generate_project(root: Path) -> Path:
    """Write the generated project into root and return it."""
    root.mkdir(parents=True)
    declarations = []
    for i in range(UNITS):
        declarations.append(f"double unit_{i:02d}(double x);\nextern const double unit_{i:02d}_coeffs[4];")
        coeffs = [((i * 37 + 11 * k) % 23 - 11) / 7.0 for k in range(4)]
        # Most units also call their predecessor; unit LOW calls across the two libraries.
        previous = f" + 0.25 * unit_{i - 1:02d}(0.5 * x)" if i % 7 else ""
        source = UNIT.format(i=i, c0=coeffs[0], c1=coeffs[1], c2=coeffs[2], c3=coeffs[3],
                             shape=SHAPES[i % len(SHAPES)].format(v="v"), previous=previous)
        (root / f"unit_{i:02d}.c").write_text(source)
    (root / "units.h").write_text(HEADER % (UNITS, "\n".join(declarations) + "\n"))
    entries = ",\n".join(f'    {{"unit_{i:02d}", unit_{i:02d}, unit_{i:02d}_coeffs}}' for i in range(UNITS))
    (root / "table.c").write_text(
        f'#include "units.h"\n\nconst struct unit_entry unit_table[UNIT_COUNT] = {{\n{entries}\n}};\n')
    for name, text in zip(PROGRAMS, (SWEEP, CHAIN, TABLE)):
        (root / f"main_{name}.c").write_text(text)
    objects = [f"unit_{i:02d}.o" for i in range(UNITS)]
    (root / "Makefile").write_text(MAKEFILE.format(low=" ".join(objects[:LOW]), high=" ".join(objects[LOW:]),
                                                   programs=" ".join(PROGRAMS)))
    return root


def program_outputs(project: Path) -> str:
    return "".join(f"== {name}\n" + run_program(project / name) for name in PROGRAMS)


@pytest.mark.slow
def test_parallel_make_builds_do_not_interfere(tmp_path):
    reference = generate_project(tmp_path / "reference")
    make(reference, reference_toolchain().make_env())
    expected = program_outputs(reference)

    shared_tmp = tmp_path / "shared-tmp"
    shared_tmp.mkdir()
    env = verbose_env(ltoad_toolchain().make_env(TMPDIR=str(shared_tmp)))
    trees = [generate_project(tmp_path / f"ltoad-{n}") for n in (1, 2)]
    builds = [subprocess.Popen(["make", "-j2"], cwd=tree, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True) for tree in trees]
    for tree, build in zip(trees, builds):
        stdout, stderr = build.communicate(timeout=600)
        result = subprocess.CompletedProcess(build.args, build.returncode, stdout, stderr)
        if build.returncode != 0:
            pytest.fail(failure_report(f"concurrent make -j2 in {tree.name}", build.args, tree, result))
        assert_linked_by_ltoad(stderr, f"make -j2 in {tree.name}")

    for tree in trees:
        assert_same_output(expected, program_outputs(tree), f"programs built in {tree.name}")
    leftovers = sorted(p.name for p in shared_tmp.iterdir())
    assert not leftovers, f"the builds left temporary files in TMPDIR: {leftovers[:20]}"
