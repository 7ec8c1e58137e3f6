"""Forward-mode benchmark: a 64-input gradient from width-N forward calls against N scalar
forward calls (bench/forward/jacobian.c, built with ltoad-clang -O2), in one run.

    scripts/bench --forward
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "bench" / "forward" / "jacobian.c"
BIN = Path(sys.executable).parent


def main() -> int:
    with tempfile.TemporaryDirectory(prefix="ltoad-bench-forward-") as directory:
        program = Path(directory) / "jacobian"
        subprocess.run([str(BIN / "ltoad-clang"), "-O2", str(SOURCE), "-lm", "-o", str(program)],
                       check=True)
        output = subprocess.run([str(program)], check=True, capture_output=True, text=True).stdout
    seconds = {line.split()[0]: float(line.split()[1]) for line in output.splitlines()}
    print("forward-mode gradient of a 64-input function (best of 20, seconds)")
    print(f"{'calls':<22}{'seconds':>12}{'vs scalar':>12}")
    for name, label in (("scalar", "64 x width 1"), ("width4", "16 x width 4"),
                        ("width8", "8 x width 8")):
        print(f"{label:<22}{seconds[name]:>12.3e}{seconds[name] / seconds['scalar']:>12.2f}")
    print(f"largest difference between the three gradients: {seconds['maxdiff']:.1e}")
    return 0 if seconds["maxdiff"] < 1e-9 else 1


if __name__ == "__main__":
    sys.exit(main())
