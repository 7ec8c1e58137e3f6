"""newton_forward: Newton's method with Jacobians from forward-mode derivatives (__enzyme_fwddiff).

The project (four C files and a header, plain Makefile) solves a steady reaction-diffusion
problem on n interior nodes (Arrhenius source, conductivity growing with the temperature) and a
three-species aqueous equilibrium with activity coefficients. The residuals live in residual.c,
their constitutive laws in physics.c; newton.c builds each Jacobian column J e_j with one
__enzyme_fwddiff call and solves J dx = -F with its own LU. The program compares the
forward-mode Jacobian at the initial guess with central differences and exits non-zero when a
solve does not converge or the Jacobian is off.

A plain clang build cannot answer __enzyme_fwddiff, so there is no reference build: the tests
build through ltoad and check the program's own numbers.
"""

import re
import textwrap

import pytest
from harness import (
    assert_bitcode,
    assert_linked_by_ltoad,
    base_env,
    ltoad_toolchain,
    make_build,
    require_tool,
    run_checked,
    run_program,
)

SYSTEMS = ("reaction_diffusion", "equilibrium")
JACOBIAN_LIMIT = 1e-6
MAX_ITERATIONS = 8
OBJECTS = ("main.o", "newton.o", "residual.o", "physics.o")


def parse(output: str) -> dict[str, dict]:
    """Per system: residual history, converged flag, iteration count, checksum, Jacobian error."""
    found: dict[str, dict] = {name: {"history": []} for name in SYSTEMS}
    for line in output.splitlines():
        if m := re.fullmatch(r"(\w+): iter (\d+) \|F\| = (\S+)", line):
            history = found[m[1]]["history"]
            assert int(m[2]) == len(history), f"iterations out of order in:\n{output}"
            history.append(float(m[3]))
        elif m := re.fullmatch(r"(\w+): (converged|iterations|checksum|max \|J_ad - J_fd\|) = (\S+)", line):
            found[m[1]][m[2]] = m[3]
    for name, facts in found.items():
        missing = {"converged", "iterations", "checksum", "max |J_ad - J_fd|"} - set(facts)
        assert not missing, f"{name}: no {sorted(missing)} line in:\n{output}"
    return found


def check_system(name: str, facts: dict, output: str) -> None:
    history = facts["history"]
    iterations = int(facts["iterations"])
    assert facts["converged"] == "yes", f"{name} did not converge:\n{output}"
    assert len(history) == iterations + 1 and history[-1] < 1e-12, output
    assert iterations <= MAX_ITERATIONS, f"{name}: {iterations} Newton steps, expected at most {MAX_ITERATIONS}"
    # Quadratic convergence: over the final steps ||F|| falls at least like ||F||^1.5 (steps
    # that land on the round-off floor are exempt).
    for before, after in zip(history[-4:-1], history[-3:]):
        assert after <= max(10.0 * before**1.5, 1e-13), \
            f"{name}: ||F|| went from {before:.3e} to {after:.3e}, not super-linear; history {history}"
    error = float(facts["max |J_ad - J_fd|"])
    assert error < JACOBIAN_LIMIT, f"{name}: forward-mode Jacobian differs from central differences by {error}"


@pytest.mark.slow
@pytest.mark.parametrize("opt", ["-O0", "-O2"])
def test_newton_with_forward_mode_jacobians(tmp_path, opt):
    project = make_build("newton_forward", tmp_path, ltoad_toolchain(), opt)
    for obj in OBJECTS:
        assert_bitcode(project / obj)

    results = {}
    for args in [(), ("20",), ("40",)]:
        output = run_program(project / "newton", args)   # non-zero exit: not converged or Jacobian off
        assert output.endswith("all systems solved\n"), output
        facts = parse(output)
        for name in SYSTEMS:
            check_system(name, facts[name], output)
        results[args] = facts
    # The equilibrium does not depend on the grid size.
    assert len({facts["equilibrium"]["checksum"] for facts in results.values()}) == 1


@pytest.mark.slow
def test_fwddiff_declared_double_on_void_residual(tmp_path):
    """Declared the usual way, returning double, the call on a void residual returns 0.0 and the
    Jacobian still arrives in the shadow of r."""
    project = make_build("newton_forward", tmp_path, ltoad_toolchain(), "-O2 -DFWDDIFF_RETURNS_DOUBLE")
    output = run_program(project / "newton")
    for name, facts in parse(output).items():
        check_system(name, facts, output)


SELECTED_TARGET = textwrap.dedent("""\
    #include <stdio.h>
    extern int enzyme_dup, enzyme_const;
    double __enzyme_fwddiff(void *, ...);
    double square(const double *x, int n) { double s = 0; for (int i = 0; i < n; i++) s += x[i] * x[i]; return s; }
    double cube(const double *x, int n) { double s = 0; for (int i = 0; i < n; i++) s += x[i] * x[i] * x[i]; return s; }
    __attribute__((noinline)) double tangent(int which, const double *x, const double *v, int n) {
        if (which)
            return __enzyme_fwddiff((void *)square, enzyme_dup, x, v, enzyme_const, n);
        return __enzyme_fwddiff((void *)cube, enzyme_dup, x, v, enzyme_const, n);
    }
    int main(int argc, char **argv) {
        (void)argv;
        double x[2] = {3, 4}, v[2] = {1, 0};
        printf("%g %g\\n", tangent(argc > 0, x, v, 2), tangent(argc < 0, x, v, 2));
        return 0;
    }
    """)


@pytest.mark.slow
def test_fwddiff_target_chosen_by_branch_at_O2(tmp_path):
    """Two __enzyme_fwddiff calls that differ only in the function: clang merges them at -O1 and
    above into one call on a select of both functions; ltoad dispatches on the pointer."""
    (tmp_path / "select.c").write_text(SELECTED_TARGET)
    env = {**base_env(), "LTOAD_VERBOSE": "1"}
    build = run_checked("ltoad-clang -O2 select.c", [require_tool("ltoad-clang"), "-O2", "select.c", "-o", "select"],
                        tmp_path, env)
    assert_linked_by_ltoad(build.stderr, "ltoad-clang -O2 select.c")
    assert run_program(tmp_path / "select") == "6 27\n"
