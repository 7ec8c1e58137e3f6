"""Gradient benchmark: ADBench GMM, BA and LSTM differentiated by ltoad, AD after vs before optimization.

The C objectives and drivers in bench/adbench/ are built with ltoad-clang in two configurations
that differ only in where the differentiation happens:

    after-opt    every source at -O2 -Xclang -disable-llvm-passes, linked at -O2
    before-opt   the same objects, linked with -Wl,--ltoad-ad-before-opt

so all optimization happens at link time (Enzyme's headline comparison, "ref" being before-opt).
Each build's gradient is first checked against central finite differences on the headline input
(`--check`, tolerance CHECK_TOLERANCE). When a configuration cannot be built or checked with the
read-only data passed as enzyme_const, the pair is built again with -DADBENCH_DATA_AS_DUP (data
passed as enzyme_dup with a scratch shadow, see bench/adbench/adbench.h) and that pair gives the
speed-up, so both sides do the same work.

Then every input is timed (best of --repeat runs inside the driver) and the report gives, per
input and configuration, objective and gradient seconds, their ratio and the tape bytes, the
speed-up of after-opt over before-opt (gradient seconds) with its geometric mean, and the
headline ratios beside the targets and the reference figures of other tools.

    scripts/bench --adbench [--repeat N] [--data DIR] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ROOT / "bench" / "adbench"
DEFAULT_DATA = ROOT.parent / "shared" / "data" / "adbench"
BIN = Path(sys.executable).parent

COMPILE_FLAGS = ["-O2", "-Xclang", "-disable-llvm-passes"]
LINK_FLAGS = ["-O2"]
AD_BEFORE_OPT = "-Wl,--ltoad-ad-before-opt"
DATA_AS_DUP = "-DADBENCH_DATA_AS_DUP"
COMMON_SOURCES = ("common.c", "readers.c")
CHECK_TOLERANCE = 1e-4
RUN_TIMEOUT = 600
DEFAULT_REPEAT = 10

TARGET_SPEEDUP = 2.0
# gradient / objective: target, then hand-written, Tapenade and Enzyme (clang-22 -O2, these machines)
HEADLINES = {
    "gmm": ("GMM 1k d10 K25", 3.0, (2.0, 3.0, 9.5)),
    "lstm": ("LSTM l2 c1024", 4.0, (5.7, 4.3, 3.4)),
    "ba": ("BA ba1 Jacobian", 5.0, (2.8, 11.3, 4.6)),
}


@dataclass(frozen=True)
class Input:
    benchmark: str
    label: str
    path: str          # relative to the data directory
    headline: bool = False


INPUTS = [
    Input("gmm", "GMM 1k d2 K10", "gmm/1k/gmm_d2_K10.txt"),
    Input("gmm", "GMM 1k d10 K25", "gmm/1k/gmm_d10_K25.txt", headline=True),
    Input("gmm", "GMM 10k d10 K25", "gmm/10k/gmm_d10_K25.txt"),
    Input("ba", "BA ba1", "ba/ba1_n49_m7776_p31843.txt", headline=True),
    Input("ba", "BA ba3", "ba/ba3_n161_m48126_p182072.txt"),
    Input("lstm", "LSTM l2 c1024", "lstm/lstm_l2_c1024.txt", headline=True),
    Input("lstm", "LSTM l4 c4096", "lstm/lstm_l4_c4096.txt"),
]


class DriverError(Exception):
    """A driver could not be built, crashed, or printed no result; the message says which."""


@dataclass(frozen=True)
class Config:
    name: str
    link_flags: tuple[str, ...]
    defines: tuple[str, ...] = ()


AFTER = Config("after-opt", ())
BEFORE = Config("before-opt", (AD_BEFORE_OPT,))
AFTER_DUP = Config("after-opt, data dup", (), (DATA_AS_DUP,))
BEFORE_DUP = Config("before-opt, data dup", (AD_BEFORE_OPT,), (DATA_AS_DUP,))


@dataclass
class Build:
    benchmark: str
    config: Config
    binary: Path | None = None
    failure: str = ""             # why the build cannot be used (empty when it can)
    check_error: float | None = None

    @property
    def usable(self) -> bool:
        return self.binary is not None and not self.failure


@dataclass
class Timing:
    objective: float
    gradient: float
    tape_bytes: int

    @property
    def ratio(self) -> float:
        return self.gradient / self.objective


@dataclass
class Result:
    input: Input
    timings: dict[str, Timing] = field(default_factory=dict)     # by configuration name
    failures: dict[str, str] = field(default_factory=dict)
    pair: tuple[str, str] | None = None                          # (after, before) compared

    @property
    def speedup(self) -> float | None:
        if self.pair is None or not all(name in self.timings for name in self.pair):
            return None
        after, before = (self.timings[name] for name in self.pair)
        return before.gradient / after.gradient


def tail(text: str, lines: int = 15) -> str:
    return "\n".join(text.strip().splitlines()[-lines:])


def run_tool(argv: list[str], cwd: Path) -> None:
    result = subprocess.run(argv, cwd=cwd, capture_output=True, text=True)
    if result.returncode != 0:
        raise DriverError(f"{' '.join(argv)} failed (exit {result.returncode}):\n{tail(result.stderr)}")


def compile_objects(benchmark: str, defines: tuple[str, ...], work: Path) -> list[Path]:
    """Compile the benchmark's sources once per set of defines; returns the objects."""
    directory = work / "-".join(["objects", *(d.removeprefix("-D").lower() for d in defines)])
    directory.mkdir(exist_ok=True)
    objects = []
    for source in (*COMMON_SOURCES, f"{benchmark}.c", f"{benchmark}_main.c"):
        obj = directory / source.replace(".c", ".o")
        if not obj.exists():
            run_tool([str(BIN / "ltoad-clang"), *COMPILE_FLAGS, *defines, "-c", str(SOURCES / source),
                      "-o", str(obj)], work)
        objects.append(obj)
    return objects


def build(benchmark: str, config: Config, work: Path) -> Build:
    result = Build(benchmark, config)
    binary = work / f"{benchmark}-{config.name.replace(', ', '-').replace(' ', '-')}"
    try:
        objects = compile_objects(benchmark, config.defines, work)
        run_tool([str(BIN / "ltoad-clang"), *LINK_FLAGS, *config.link_flags, *map(str, objects), "-lm",
                  "-o", str(binary)], work)
        result.binary = binary
    except DriverError as e:
        result.failure = f"build failed: {first_error(str(e))}"
        print(f"bench: {e}", file=sys.stderr)
    return result


def first_error(text: str) -> str:
    """The first `ltoad: error:` line of a failure, else its last line."""
    lines = text.strip().splitlines()
    return next((l.strip() for l in lines if "error:" in l and "linker command failed" not in l), lines[-1])


def run_driver(binary: Path, data: Path, repeat: int, check: bool = False) -> dict[str, str]:
    """Run a driver; its `key value` lines as a dict."""
    argv = [str(binary), str(data), str(repeat), *(["--check"] if check else [])]
    try:
        result = subprocess.run(argv, capture_output=True, text=True, timeout=RUN_TIMEOUT)
    except subprocess.TimeoutExpired:
        raise DriverError(f"timed out after {RUN_TIMEOUT} s") from None
    if result.returncode != 0:
        signal = f"signal {-result.returncode}" if result.returncode < 0 else f"exit {result.returncode}"
        raise DriverError(f"crashed ({signal})" + (f": {tail(result.stderr, 3)}" if result.stderr else ""))
    values = dict(line.split(" ", 1) for line in result.stdout.splitlines() if " " in line)
    if "gradient_seconds" not in values:
        raise DriverError(f"no result in its output:\n{tail(result.stdout)}")
    return values


def check(build_: Build, data: Path) -> Build:
    """Compare the build's gradient with finite differences on the headline input."""
    if not build_.usable:
        return build_
    try:
        values = run_driver(build_.binary, data, 1, check=True)
        build_.check_error = float(values["check_max_rel_error"])
        if not build_.check_error <= CHECK_TOLERANCE:
            build_.failure = f"wrong gradient: max relative error {build_.check_error:.2e} vs finite differences"
    except DriverError as e:
        build_.failure = f"check run {e}"
    print(f"bench: {build_.benchmark} {build_.config.name}: {build_.failure or 'gradient checked'}",
          file=sys.stderr, flush=True)
    return build_


def prepare(benchmark: str, data: Path, work: Path) -> tuple[list[Build], tuple[str, str] | None]:
    """Build and check the benchmark's configurations; returns them and the pair to compare."""
    headline = data / next(i.path for i in INPUTS if i.benchmark == benchmark and i.headline)
    builds = [check(build(benchmark, config, work), headline) for config in (AFTER, BEFORE)]
    if all(b.usable for b in builds):
        return builds, (AFTER.name, BEFORE.name)
    fallback = [check(build(benchmark, config, work), headline) for config in (AFTER_DUP, BEFORE_DUP)]
    builds += fallback
    return builds, (AFTER_DUP.name, BEFORE_DUP.name) if all(b.usable for b in fallback) else None


def measure(input_: Input, builds: list[Build], pair: tuple[str, str] | None, data: Path,
            repeat: int) -> Result:
    result = Result(input_, pair=pair)
    for b in builds:
        if not b.usable:
            result.failures[b.config.name] = b.failure
            continue
        if b.config.name not in (AFTER.name, *(pair or ())):
            continue
        print(f"bench: timing {input_.label} ({b.config.name})", file=sys.stderr, flush=True)
        try:
            values = run_driver(b.binary, data / input_.path, repeat)
            result.timings[b.config.name] = Timing(float(values["objective_seconds"]),
                                                   float(values["gradient_seconds"]),
                                                   int(values["tape_bytes"]))
        except DriverError as e:
            result.failures[b.config.name] = f"run {e}"
    return result


def format_table(header: list[str], rows: list[list[str]], left: int = 1) -> str:
    """Columns aligned: the first `left` and the last to the left, numbers to the right."""
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    lines = ["  ".join(c.rjust(w) if left <= i < len(header) - 1 else c.ljust(w)
                       for i, (c, w) in enumerate(zip(r, widths))).rstrip() for r in [header, *rows]]
    lines.insert(1, "-" * max(map(len, lines)))
    return "\n".join(lines)


def timing_rows(result: Result, builds: list[Build]) -> list[list[str]]:
    """One row per configuration timed or failed for this input, in build order."""
    rows = []
    for build_ in (b for b in builds if b.benchmark == result.input.benchmark):
        name = build_.config.name
        if name not in result.timings and name not in result.failures:
            continue
        label = result.input.label if not rows else ""
        timing = result.timings.get(name)
        speedup = f"{result.speedup:.2f}" if result.pair and name == result.pair[1] and result.speedup else ""
        tape = f"{timing.tape_bytes:,}" + (" /call" if result.input.benchmark == "ba" else "") if timing else ""
        status = result.failures.get(name) or f"checked ({build_.check_error:.1e})"
        cells = [f"{timing.objective:.3e}", f"{timing.gradient:.3e}", f"{timing.ratio:.2f}", tape, speedup] \
            if timing else ["", "", "", "", ""]
        rows.append([label, name, *cells, status])
    return rows


def geometric_mean(values: list[float]) -> float:
    return math.exp(sum(map(math.log, values)) / len(values))


def headline_table(results: list[Result]) -> str:
    header = ["headline (gradient / objective)", "ltoad after-opt", "target", "hand-written", "Tapenade",
              "Enzyme"]
    rows = []
    for benchmark, (label, target, (hand, tapenade, enzyme)) in HEADLINES.items():
        result = next((r for r in results if r.input.benchmark == benchmark and r.input.headline), None)
        timing = result.timings.get(AFTER.name) if result else None
        ours = f"{timing.ratio:.2f}" + (" (met)" if timing.ratio <= target else "") if timing else "failed"
        rows.append([label, ours, f"<= {target}", f"{hand}", f"{tapenade}", f"{enzyme}"])
    return format_table(header, rows)


def report(results: list[Result], builds: list[Build], repeat: int) -> str:
    header = ["input", "configuration", "objective s", "gradient s", "ratio", "tape bytes", "speed-up", "check"]
    rows = [row for result in results for row in timing_rows(result, builds)]
    text = [f"ltoad gradients of ADBench objectives, best of {repeat} runs; objects at -O2 -Xclang "
            "-disable-llvm-passes, optimized at link time", "", format_table(header, rows, left=2), "",
            headline_table(results), ""]
    speedups = [r.speedup for r in results if r.speedup]
    if speedups:
        mean = geometric_mean(speedups)
        text.append(f"geometric mean speed-up of AD after optimization over AD before it (gradient time): "
                    f"{mean:.2f} over {len(speedups)} inputs; target >= {TARGET_SPEEDUP}"
                    + (" (met)" if mean >= TARGET_SPEEDUP else ""))
    else:
        text.append("no input was timed in both configurations: no speed-up")
    if any(r.pair and r.pair[0] == AFTER_DUP.name for r in results):
        text.append("'data dup' rows: read-only data passed as enzyme_dup with a scratch shadow, because the "
                    "enzyme_const build failed (see its row); the speed-up compares that pair.")
    return "\n".join(text)


def as_json(results: list[Result], builds: list[Build], repeat: int) -> dict:
    speedups = [r.speedup for r in results if r.speedup]
    return {
        "repeat": repeat,
        "builds": [{"benchmark": b.benchmark, "configuration": b.config.name, "failure": b.failure,
                    "check_max_rel_error": b.check_error} for b in builds],
        "inputs": [{"input": r.input.label, "path": r.input.path, "pair": r.pair, "speedup": r.speedup,
                    "failures": r.failures,
                    "timings": {name: {"objective_seconds": t.objective, "gradient_seconds": t.gradient,
                                       "ratio": t.ratio, "tape_bytes": t.tape_bytes}
                                for name, t in r.timings.items()}} for r in results],
        "geometric_mean_speedup": geometric_mean(speedups) if speedups else None,
        "targets": {label: target for label, target, _ in HEADLINES.values()},
    }


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=DEFAULT_REPEAT,
                        help=f"timed runs per input, the best counts (default {DEFAULT_REPEAT})")
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help=f"ADBench data (default {DEFAULT_DATA})")
    parser.add_argument("--json", type=Path, metavar="FILE", help="also write the numbers as JSON")
    args = parser.parse_args(argv)
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    if not args.data.is_dir():
        parser.error(f"no ADBench data in {args.data}")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    results: list[Result] = []
    builds: list[Build] = []
    with tempfile.TemporaryDirectory(prefix="ltoad-bench-adbench-") as tmp:
        for benchmark in HEADLINES:
            prepared, pair = prepare(benchmark, args.data, Path(tmp))
            builds += prepared
            results += [measure(i, prepared, pair, args.data, args.repeat)
                        for i in INPUTS if i.benchmark == benchmark]
    print(report(results, builds, args.repeat))
    if args.json:
        args.json.write_text(json.dumps(as_json(results, builds, args.repeat), indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
