"""Numeric tier: C programs built through ltoad-clang at -O0..-O3, AD gradients against central
finite differences of the same compiled objective.

Every case is `cases/NAME.c` or a directory `cases/NAME/` of several .c files (built as separate
compilation units). The first line of a case may set the tolerance: `// rtol: 1e-5`.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

HERE = Path(__file__).parent
CASES = sorted(p for p in (HERE / "cases").iterdir() if p.suffix == ".c" or p.is_dir())
LEVELS = ["-O0", "-O1", "-O2", "-O3"]
DEFAULT_RTOL = 1e-5
BIN = Path(sys.executable).parent


def sources(case: Path) -> list[Path]:
    return sorted(case.glob("*.c")) if case.is_dir() else [case]


def tolerance(case: Path) -> float:
    match = re.search(r"//\s*rtol:\s*([0-9.eE+-]+)", sources(case)[0].read_text())
    return float(match.group(1)) if match else DEFAULT_RTOL


def build(case: Path, level: str, out: Path) -> None:
    objects = []
    for source in sources(case):
        obj = out.parent / (source.stem + ".o")
        compile_cmd = [str(BIN / "ltoad-clang"), level, f"-I{HERE}", "-c", str(source), "-o", str(obj)]
        _check(subprocess.run(compile_cmd, capture_output=True, text=True), compile_cmd)
        objects.append(str(obj))
    link = [str(BIN / "ltoad-clang"), level, *objects, "-lm", "-o", str(out)]
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


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("case", CASES, ids=lambda p: p.stem)
def test_gradient_matches_finite_differences(case: Path, level: str, tmp_path: Path):
    program = tmp_path / "prog"
    build(case, level, program)
    result = subprocess.run([str(program)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    ad, fd = parse(result.stdout)
    scale = max(1.0, float(np.max(np.abs(fd))))
    np.testing.assert_allclose(ad, fd, rtol=tolerance(case), atol=tolerance(case) * scale)
