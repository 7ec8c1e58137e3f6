"""A generated 200-unit C project with one derivative request deep in its call graph.

scripts/gen_project.py --request writes 200 units of numerical kernels (archived into
libunits.a) in which twelve functions, `objective` and the `chain_*` functions it calls, spread
over twelve units, form the only differentiable chain; main asks for the gradient of `objective`
with __enzyme_autodiff and prints it next to central finite differences. At 4 kernels per unit
the merged module is about 130k lines of IR.

One build through ltoad (make -j2, LTOAD_VERBOSE=1, -Wl,--ltoad-save-temps) must

- print a gradient that matches the finite differences (relative error below TOLERANCE),
- generate derivative functions (augmented_*/reverse_* in <output>.ltoad.after-ad.ll) for chain
  functions only, among them each chain function kept out of line (the noinline ones), and none
  for the inactive kernels, the per-unit bookkeeping or main,
- and behave like plain full LTO everywhere else: the same bitcode objects linked by
  `clang-22 -flto -fuse-ld=lld` with a stub for __enzyme_autodiff print the same lines, except
  those carrying the derivative.
"""

import re
import sys
from pathlib import Path

import pytest
from harness import (
    PROJECTS,
    assert_linked_by_ltoad,
    assert_same_output,
    base_env,
    ltoad_toolchain,
    make,
    require_tool,
    run_checked,
    run_program,
    verbose_env,
)

GENERATOR = PROJECTS.parent / "scripts" / "gen_project.py"
FILES = 200
KERNELS = 4
# The program's central differences use h = 1e-6 on values of order 0.1-1: their own error is
# near 1e-9, so a correct gradient stays far below this.
TOLERANCE = 1e-6

STUB = """\
int enzyme_dup, enzyme_const;
double __enzyme_autodiff(void *f, ...) { (void)f; return 0.0; }
"""

DERIVATIVE = re.compile(r"^define [^@]*@\"?(augmented|reverse|diffe|fwddiffe)_([\w.$]+?)(\.[a-z0-9_]+)?\"?\(",
                        re.MULTILINE)
PARSED_LINE = re.compile(r"ltoad: ltoad-ld: AD parsed (\d+) of (\d+) functions")


def chain_names(project: Path) -> tuple[set[str], set[str]]:
    """The chain's functions (from kernels.h) and those of them the sources mark noinline."""
    header = (project / "kernels.h").read_text()
    chain = set(re.findall(r"^\w+ (objective|chain_\w+)\(", header, re.MULTILINE))
    sources = "".join(p.read_text() for p in sorted(project.glob("unit*.c")))
    kept = set(re.findall(r"__attribute__\(\(noinline\)\) \w+ (\w+)\(", sources))
    return chain, kept


def derivative_primals(after_ad: str) -> dict[str, list[str]]:
    """Primal name -> the derivative functions defined for it."""
    found: dict[str, list[str]] = {}
    for match in DERIVATIVE.finditer(after_ad):
        found.setdefault(match.group(2), []).append(match.group(0))
    return found


def without_derivative_lines(output: str) -> str:
    return "".join(line for line in output.splitlines(keepends=True)
                   if not line.startswith(("gradient[", "max relative error")))


@pytest.mark.slow
def test_request_deep_in_200_units(tmp_path):
    project = tmp_path / "scale"
    run_checked("gen_project.py", [sys.executable, GENERATOR, project, "--files", str(FILES),
                                   "--kernels", str(KERNELS), "--request"], tmp_path, base_env())
    chain, kept = chain_names(project)
    assert "objective" in chain and len(chain) >= 10, f"kernels.h declares an unexpected chain: {sorted(chain)}"
    assert kept and kept <= chain, f"noinline functions outside the chain: {sorted(kept - chain)}"

    env = verbose_env(ltoad_toolchain().make_env("-O2", AR=require_tool("llvm-ar-22")))
    env["LDFLAGS"] = "-Wl,--ltoad-save-temps"
    build = make(project, env)
    assert_linked_by_ltoad(build.stderr, "make of the generated project")

    # The program: gradient against finite differences.
    output = run_program(project / "kernels")
    error = re.search(r"^max relative error (\S+)$", output, re.MULTILINE)
    assert error, f"the program printed no 'max relative error' line:\n{output[-2000:]}"
    assert float(error.group(1)) < TOLERANCE, f"gradient differs from finite differences:\n{output[-1000:]}"

    # The link log: derivatives were generated, and if the AD reports what it parsed, it parsed
    # the active functions only, not the whole program.
    ld_lines = [line for line in build.stderr.splitlines() if line.startswith("ltoad: ltoad-ld:")]
    summary = next((line for line in ld_lines if " bitcode modules; " in line), None)
    assert summary is not None, "ltoad-ld printed no phase summary:\n" + "\n".join(ld_lines[-20:])
    assert " ad=" in summary and " requests=" in summary, f"no AD phases in the link: {summary}"
    for line in ld_lines:
        if parsed := PARSED_LINE.search(line):
            count, total = int(parsed.group(1)), int(parsed.group(2))
            assert count <= len(chain) + 4 and count < total, f"the AD parsed more than the chain: {line}"

    # The module after AD: derivative functions for chain functions only.
    after_ad = (project / "kernels.ltoad.after-ad.ll").read_text()
    primals = derivative_primals(after_ad)
    outside = {name: defs for name, defs in primals.items() if name not in chain}
    assert not outside, "derivatives generated for functions outside the chain:\n" + "\n".join(
        d for defs in outside.values() for d in defs)
    missing = ({"objective"} | kept) - set(primals)
    assert not missing, f"no derivative functions for chain functions kept out of line: {sorted(missing)}"

    # Everything but the derivative behaves like plain full LTO on the same bitcode.
    (project / "stub.c").write_text(STUB)
    clang = require_tool("clang-22")
    plain_env = base_env()
    run_checked("compiling the stub", [clang, "-O2", "-c", "stub.c", "-o", "stub.o"], project, plain_env)
    run_checked("plain LTO link", [clang, "-O2", "-flto", "-fuse-ld=lld", "-o", "kernels.plain", "main.o", "stub.o",
                                   "-L.", "-lunits", "-lm"], project, plain_env)
    plain = run_program(project / "kernels.plain")
    assert "objective: " in plain
    assert_same_output(without_derivative_lines(plain), without_derivative_lines(output),
                       "kernels without the gradient lines")
