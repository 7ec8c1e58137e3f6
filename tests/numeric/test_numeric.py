"""Numeric tier: C and C++ programs built through ltoad-clang / ltoad-clang++ at -O0..-O3, AD
gradients against central finite differences of the same compiled objective.

Every case is `cases/NAME.c`, `cases/NAME.cpp`, or a directory `cases/NAME/` of several .c/.cpp
files (built as separate compilation units; linked with ltoad-clang++ when any is C++). Comment
lines in the case (in any of its files, for a directory) may set
  `// rtol: 1e-5`          the relative tolerance (default 1e-5),
  `// cflags: -ffast-math` extra flags for every compile and the link.
Every case is built twice: the gradient from reverse mode (`gradient`, __enzyme_autodiff) and,
with -DLTOAD_FORWARD, from forward mode (harness.h takes the tangent of `objective` along each
unit vector with __enzyme_fwddiff).
A case that fails because of a known gap in ltoad is listed in XFAIL (XFAIL_FORWARD for forward
mode) by name, or `name@-O2` for one level, with the gap it shows; it is a strict xfail, so a
fix turns it into a failure that asks for the entry to be removed.
"""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

HERE = Path(__file__).parent
SUFFIXES = (".c", ".cpp")
CASES = sorted(p for p in (HERE / "cases").iterdir() if p.suffix in SUFFIXES or p.is_dir())
LEVELS = ["-O0", "-O1", "-O2", "-O3"]
DEFAULT_RTOL = 1e-5
BIN = Path(sys.executable).parent

# Known gaps: case name (all levels) or "name@level" -> the gap it shows.
XFAIL: dict[str, str] = {
    "int_bits_copy@-O3": "the compile-time optimizer passes a double as an i64 argument into the "
                         "noinline copy (argument promotion); with no interprocedural analysis "
                         "of integers carrying float bits, ltoad reports the copy as untypable",
    "cpp_std_vector@-O0": "memmove inside std::__relocate_a_1<double, double> at -O0: no load or "
                          "store in that function tells the element type (no interprocedural "
                          "type analysis yet)",
}

# Known gaps of forward mode (the tangent sweep), in the same form.
XFAIL_FORWARD: dict[str, str] = {}


def sources(case: Path) -> list[Path]:
    if case.is_dir():
        return sorted(p for p in case.iterdir() if p.suffix in SUFFIXES)
    return [case]


def _directive(case: Path, key: str) -> str | None:
    for source in sources(case):
        match = re.search(rf"^\s*//\s*{key}:\s*(.*?)\s*$", source.read_text(), re.M)
        if match:
            return match.group(1)
    return None


def tolerance(case: Path) -> float:
    value = _directive(case, "rtol")
    return float(value) if value else DEFAULT_RTOL


def cflags(case: Path) -> list[str]:
    value = _directive(case, "cflags")
    return shlex.split(value) if value else []


def _driver(cxx: bool) -> str:
    return str(BIN / ("ltoad-clang++" if cxx else "ltoad-clang"))


def build(case: Path, level: str, out: Path, mode: list[str] = ()) -> None:
    extra = [*cflags(case), *mode]
    objects = []
    for source in sources(case):
        obj = out.parent / (source.stem + ".o")
        compile_cmd = [_driver(source.suffix == ".cpp"), level, *extra, f"-I{HERE}", "-c",
                       str(source), "-o", str(obj)]
        _check(subprocess.run(compile_cmd, capture_output=True, text=True), compile_cmd)
        objects.append(str(obj))
    cxx = any(s.suffix == ".cpp" for s in sources(case))
    link = [_driver(cxx), level, *extra, *objects, "-lm", "-o", str(out)]
    _check(subprocess.run(link, capture_output=True, text=True), link)


def _check(result: subprocess.CompletedProcess, cmd: list[str]) -> None:
    if result.returncode != 0:
        pytest.fail(f"{' '.join(cmd)} failed:\n{result.stderr}")


def parse(output: str):
    grads, probes = {}, {}
    for line in output.splitlines():
        words = line.split()
        if words[0] == "grad":
            grads[int(words[1])] = float(words[2])
        elif words[0] == "probe":
            probes[(int(words[1]), int(words[2]))] = (float(words[3]), float(words[4]))
    n = len(grads)
    ad = np.array([grads[i] for i in range(n)])
    fd = np.array([(probes[(i, 1)][1] - probes[(i, -1)][1]) / (2 * probes[(i, 1)][0])
                   for i in range(n)])
    return ad, fd


def _params(xfail: dict[str, str] = XFAIL):
    for case in CASES:
        for level in LEVELS:
            reason = xfail.get(f"{case.stem}@{level}") or xfail.get(case.stem)
            marks = [pytest.mark.xfail(reason=reason, strict=True)] if reason else []
            yield pytest.param(case, level, marks=marks, id=f"{level}-{case.stem}")


def test_xfail_entries_name_cases():
    known = {c.stem for c in CASES}
    for key in [*XFAIL, *XFAIL_FORWARD]:
        name, _, level = key.partition("@")
        assert name in known, f"XFAIL entry {key!r} names no case"
        assert not level or level in LEVELS, f"XFAIL entry {key!r} names no level"


@pytest.mark.parametrize("case,level", list(_params()))
def test_gradient_matches_finite_differences(case: Path, level: str, tmp_path: Path):
    check_against_finite_differences(case, level, tmp_path, [])


@pytest.mark.parametrize("case,level", list(_params(XFAIL_FORWARD)))
def test_forward_mode_matches_finite_differences(case: Path, level: str, tmp_path: Path):
    """The same programs built with -DLTOAD_FORWARD: gradient component i is the tangent of
    the objective along e_i (__enzyme_fwddiff)."""
    check_against_finite_differences(case, level, tmp_path, ["-DLTOAD_FORWARD"])


def check_against_finite_differences(case: Path, level: str, tmp_path: Path, mode: list[str]):
    program = tmp_path / "prog"
    build(case, level, program, mode)
    result = subprocess.run([str(program)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    ad, fd = parse(result.stdout)
    assert len(ad) > 0, "the program printed no gradient"
    scale = max(1.0, float(np.max(np.abs(fd))))
    np.testing.assert_allclose(ad, fd, rtol=tolerance(case), atol=tolerance(case) * scale)
