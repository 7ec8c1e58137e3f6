"""Link-time benchmark: ltoad's link against plain full LTO on identical bitcode inputs.

Every C/C++ project under integration_tests/ (a Makefile or a CMakeLists.txt) and a generated
project of about 50k IR lines (200k more with --large) is built once with ltoad-clang as the
compiler, through small recording wrappers that note every link command. Each recorded link is
then run again, alternately, in two ways on the same objects and archives:

    plain   clang-22 <recorded arguments> -flto -fuse-ld=lld     (clang++-22 for C++)
    ltoad   ltoad-clang <recorded arguments>                      (ltoad-clang++ for C++)

After one untimed warm-up pair, each is timed --repeat times; the table gives min and median
seconds and the ratio of the medians (target: at most 1.3 for links without derivative requests).
A third, untimed plain link per repetition records lld's --time-trace, which splits plain LTO
into optimization, code generation and the rest (driver, lld proper). ltoad's split comes from
its LTOAD_VERBOSE lines and the moments they arrive: start-up (the Python start of ltoad-clang
and ltoad-ld, the clang driver), load (importing llvmlite, collecting and parsing bitcode),
merge (linking modules, internalizing, AD), optimize, codegen and ld.lld. The merged module's
IR line count comes from one extra link with -Wl,--ltoad-save-temps. Finally each project's
programs from both sides are run without arguments and their outputs compared.

    scripts/bench [--repeat N] [--large] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import gen_project  # the sibling script: this script's directory is first on sys.path
from ltoad.drivers import flags

ROOT = Path(__file__).resolve().parent.parent
INTEGRATION = ROOT / "integration_tests"
BIN = Path(sys.executable).parent

TARGET_RATIO = 1.3
PROGRAM_TIMEOUT = 60
GENERATED = {"generated-50k": 40, "generated-200k": 160}   # translation units

COMPILERS = {"c": ("ltoad-clang", "clang-22"), "c++": ("ltoad-clang++", "clang++-22")}
PLAIN_LINK_FLAGS = ["-flto", "-fuse-ld=lld"]
BUILD_VARIABLES = ("CC", "CXX", "AR", "RANLIB", "LD", "CFLAGS", "CXXFLAGS", "CPPFLAGS", "LDFLAGS",
                   "LDLIBS", "MAKEFLAGS", "MFLAGS", "MAKELEVEL", "CMAKE_GENERATOR")
LOG_VARIABLE = "LTOAD_BENCH_LOG"

RECORDER = """\
#!{python}
import json, os, sys
log = os.environ.get({variable!r})
if log:
    with open(log, "a") as f:
        f.write(json.dumps({{"cwd": os.getcwd(), "lang": {lang!r}, "args": sys.argv[1:]}}) + "\\n")
os.execv({tool!r}, [{tool!r}, *sys.argv[1:]])
"""

SUMMARY_LINE = re.compile(r"ltoad-ld: \d+ bitcode modules; (.*)")
PHASE = re.compile(r"([\w-]+)=([\d.]+)s")
TOTAL_LINE = re.compile(r"ltoad-ld: total before ld.lld ([\d.]+)s")
PLAIN_PARTS = ("opt", "codegen", "rest")
LTOAD_PARTS = ("start-up", "load", "merge", "optimize", "codegen", "ld.lld")


class BenchError(Exception):
    """A project could not be built or linked; the message ends with the tail of the output."""


@dataclass
class LinkStep:
    """One recorded link command, run again with another output name."""
    project: str
    cwd: Path
    lang: str
    args: list[str]

    def _output_index(self) -> int | None:
        """Position of the output file name in args (after `-o`, or joined as `-oNAME`)."""
        for i, arg in enumerate(self.args):
            if arg == "-o":
                return i + 1
            if arg.startswith("-o"):
                return i
        return None

    @property
    def output(self) -> str:
        index = self._output_index()
        return "a.out" if index is None else self.args[index].removeprefix("-o")

    @property
    def name(self) -> str:
        return f"{self.project}/{os.path.basename(self.output)}"

    @property
    def shared(self) -> bool:
        return "-shared" in self.args

    def argv(self, side: str, output: str, extra: Sequence[str] = ()) -> list[str]:
        """The command for `side` ('plain' or 'ltoad') writing `output`."""
        ltoad_tool, plain_tool = COMPILERS[self.lang]
        args = list(self.args)
        index = self._output_index()
        if index is None:
            args += ["-o", output]
        else:
            args[index] = args[index][:len(args[index]) - len(self.output)] + output
        if side == "ltoad":
            return [str(BIN / ltoad_tool), *args, *extra]
        return [plain_tool, *args, *PLAIN_LINK_FLAGS, *extra]

    def side_output(self, side: str) -> str:
        return f"{self.output}.bench-{side}"


@dataclass
class StepResult:
    name: str
    ir_lines: int | None = None
    times: dict[str, list[float]] = field(default_factory=lambda: {"plain": [], "ltoad": []})
    plain_parts: list[dict[str, float]] = field(default_factory=list)
    ltoad_parts: list[dict[str, float]] = field(default_factory=list)
    check: str = ""

    def record(self, side: str, elapsed: float, lines: list[tuple[float, str]]) -> None:
        self.times[side].append(elapsed)
        if side == "ltoad":
            self.ltoad_parts.append(ltoad_parts(elapsed, lines))

    def median(self, side: str) -> float:
        return statistics.median(self.times[side])

    @property
    def ratio(self) -> float:
        return self.median("ltoad") / self.median("plain")

    def as_json(self) -> dict:
        return {
            "name": self.name, "ir_lines": self.ir_lines, "seconds": self.times, "ratio": self.ratio,
            "plain_parts": median_parts(self.plain_parts, PLAIN_PARTS),
            "ltoad_parts": median_parts(self.ltoad_parts, LTOAD_PARTS), "check": self.check,
        }


def clean_env(**extra: str) -> dict[str, str]:
    """The caller's environment without build settings, with the ltoad tools first on PATH."""
    env = {k: v for k, v in os.environ.items() if k not in BUILD_VARIABLES and not k.startswith("LTOAD_")}
    env["PATH"] = os.pathsep.join([str(BIN), env.get("PATH", os.defpath)])
    env["LC_ALL"] = "C"
    env.update(extra)
    return env


def run_quiet(argv: list[str], cwd: Path, env: dict[str, str], what: str) -> subprocess.CompletedProcess:
    """Run a command; raise BenchError with its output if it fails."""
    result = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True)
    if result.returncode != 0:
        tail = (result.stdout + result.stderr)[-2000:]
        raise BenchError(f"{what} failed (exit {result.returncode}): {' '.join(argv)}\n{tail}")
    return result


def write_recorders(directory: Path) -> dict[str, Path]:
    """Compiler wrappers that log their arguments to $LTOAD_BENCH_LOG, then exec ltoad-clang(++)."""
    directory.mkdir(parents=True, exist_ok=True)
    recorders = {}
    for lang, (ltoad_tool, _) in COMPILERS.items():
        path = directory / ltoad_tool
        path.write_text(RECORDER.format(python=sys.executable, variable=LOG_VARIABLE, lang=lang,
                                        tool=str(BIN / ltoad_tool)))
        path.chmod(0o755)
        recorders[lang] = path
    return recorders


def build_make(work: Path, recorders: dict[str, Path], log: Path) -> None:
    env = clean_env(CC=str(recorders["c"]), CXX=str(recorders["c++"]), **{LOG_VARIABLE: str(log)})
    run_quiet(["make", f"-j{os.cpu_count() or 1}"], work, env, f"make in {work.name}")


def build_cmake(work: Path, recorders: dict[str, Path], log: Path) -> None:
    build = work / "build"
    configure = ["cmake", "-S", str(work), "-B", str(build), "-G", "Unix Makefiles", "-DCMAKE_BUILD_TYPE=Release",
                 f"-DCMAKE_C_COMPILER={recorders['c']}", f"-DCMAKE_CXX_COMPILER={recorders['c++']}"]
    run_quiet(configure, work, clean_env(), f"cmake configure of {work.name}")
    run_quiet(["cmake", "--build", str(build), f"-j{os.cpu_count() or 1}"], work,
              clean_env(**{LOG_VARIABLE: str(log)}), f"cmake build of {work.name}")


def build_system(project: Path):
    """The build function for a project directory, or None if it is not a C/C++ project."""
    if (project / "Makefile").is_file():
        return build_make
    if (project / "CMakeLists.txt").is_file():
        return build_cmake
    return None


def recorded_links(project: str, log: Path) -> list[LinkStep]:
    """The link commands in a recording log, in the order the build ran them."""
    steps = []
    for line in log.read_text().splitlines() if log.exists() else ():
        entry = json.loads(line)
        decision = flags.decide(entry["args"], ld_path="ltoad-ld")
        if decision.action == "link" and not flags.scan(entry["args"]).sources:
            steps.append(LinkStep(project, Path(entry["cwd"]), entry["lang"], entry["args"]))
    return steps


def build_project(name: str, source: Path, work: Path, recorders: dict[str, Path]) -> list[LinkStep]:
    """Copy a project into work/, build it through the recorders, return its link steps."""
    builder = build_system(source)
    copy = work / name
    shutil.copytree(source, copy, ignore=shutil.ignore_patterns("build", "*.o", "*.a", "*.so", "*.d"))
    log = work / f"{name}.links.jsonl"
    builder(copy, recorders, log)
    steps = recorded_links(name, log)
    if not steps:
        raise BenchError(f"the build of {name} ran no link step through the compiler")
    return steps


def timed_run(argv: list[str], cwd: Path, env: dict[str, str]) -> tuple[float, list[tuple[float, str]]]:
    """Wall seconds of a command and its stderr lines, each with the moment it arrived."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    lines = [(time.perf_counter() - start, line.rstrip("\n")) for line in proc.stderr]
    status = proc.wait()
    elapsed = time.perf_counter() - start
    if status != 0:
        raise BenchError(f"link failed (exit {status}): {' '.join(argv)}\n" + "\n".join(l for _, l in lines[-20:]))
    return elapsed, lines


def ltoad_parts(elapsed: float, lines: list[tuple[float, str]]) -> dict[str, float]:
    """Split one ltoad link into start-up, load, merge, optimize, codegen and ld.lld.

    ld.lld runs from the moment ltoad-ld announces it to the end; start-up is what is left
    outside ltoad-ld's pipeline: the Python start of ltoad-clang and ltoad-ld, the clang driver,
    argument handling and exit.
    """
    phases: dict[str, float] = {}
    total = 0.0
    lld_start = elapsed
    for arrival, line in lines:
        if summary := SUMMARY_LINE.search(line):
            phases = {k: float(v) for k, v in PHASE.findall(summary.group(1))}
        elif match := TOTAL_LINE.search(line):
            total = float(match.group(1))
        elif "ltoad-ld: exec " in line:
            lld_start = arrival
    parts = {
        "merge": sum(phases.get(k, 0.0) for k in ("merge", "internalize", "ad", "hand-over")),
        "optimize": phases.get("optimize", 0.0) + phases.get("pre-ad-optimize", 0.0),
        "codegen": phases.get("codegen", 0.0),
        "ld.lld": elapsed - lld_start,
    }
    parts["load"] = max(total - parts["merge"] - parts["optimize"] - parts["codegen"], 0.0)
    parts["start-up"] = elapsed - sum(parts.values())
    return parts


def plain_parts(elapsed: float, trace: Path) -> dict[str, float]:
    """Split one plain link by lld's time trace into LTO optimization, code generation, the rest."""
    events = json.loads(trace.read_text())["traceEvents"]
    parts = {name: sum(e["dur"] for e in events if e.get("ph") == "X" and e["name"] == name) / 1e6
             for name in ("opt", "codegen")}
    parts["rest"] = elapsed - parts["opt"] - parts["codegen"]
    return parts


def median_parts(samples: list[dict[str, float]], names: tuple[str, ...]) -> dict[str, float]:
    return {name: statistics.median(s[name] for s in samples) for name in names} if samples else {}


def link(step: LinkStep, side: str, env: dict[str, str], output: str | None = None,
         extra: Sequence[str] = ()) -> tuple[float, list[tuple[float, str]]]:
    """Run the step's link for `side`, by default into that side's own output file."""
    return timed_run(step.argv(side, output or step.side_output(side), extra), step.cwd, env)


def traced_plain_parts(step: LinkStep, env: dict[str, str]) -> dict[str, float]:
    """One plain link with lld's --time-trace (not timed with the others: tracing costs time)."""
    output = step.side_output("trace")
    trace = step.cwd / f"{output}.json"
    elapsed, _ = link(step, "plain", env, output, [f"-Wl,--time-trace={trace}"])
    parts = plain_parts(elapsed, trace)
    trace.unlink()
    (step.cwd / output).unlink()
    return parts


def merged_ir_lines(step: LinkStep, env: dict[str, str]) -> int | None:
    """Lines of the merged module ltoad-ld works on (its save-temps copy before AD)."""
    output = step.side_output("ir")
    link(step, "ltoad", env, output, ["-Wl,--ltoad-save-temps"])
    saved = sorted(step.cwd.glob(f"{output}.ltoad*"))
    text = step.cwd / f"{output}.ltoad.before-ad.ll"
    lines = sum(1 for _ in text.open()) if text.exists() else None
    for path in [*saved, step.cwd / output]:
        path.unlink(missing_ok=True)
    return lines


def measure(step: LinkStep, repeat: int) -> StepResult:
    """Time one link step: a warm-up pair, then `repeat` alternating pairs and a traced plain link."""
    env = clean_env(LTOAD_VERBOSE="1")
    result = StepResult(step.name, ir_lines=merged_ir_lines(step, env))
    for side in ("plain", "ltoad"):
        link(step, side, env)
    for rep in range(repeat):
        for side in ("plain", "ltoad") if rep % 2 == 0 else ("ltoad", "plain"):
            result.record(side, *link(step, side, env))
        result.plain_parts.append(traced_plain_parts(step, env))
    return result


def program_outputs(steps: list[LinkStep], side: str) -> list[tuple[int, str]] | str:
    """Put `side`'s outputs in place and run the programs; a string says why they were not run."""
    for step in steps:
        shutil.copy2(step.cwd / step.side_output(side), step.cwd / step.output)
    library_dirs = os.pathsep.join(sorted({str((s.cwd / s.output).parent) for s in steps if s.shared}))
    outputs = []
    for step in (s for s in steps if not s.shared):
        try:
            run = subprocess.run([str(step.cwd / step.output)], cwd=step.cwd, capture_output=True,
                                 timeout=PROGRAM_TIMEOUT, env=clean_env(LD_LIBRARY_PATH=library_dirs))
        except subprocess.TimeoutExpired:
            return f"not run: {step.name} takes over {PROGRAM_TIMEOUT} s"
        outputs.append((run.returncode, run.stdout.decode(errors="replace")))
    return outputs if outputs else "no program"


def compare_outputs(steps: list[LinkStep]) -> str:
    plain = program_outputs(steps, "plain")
    if isinstance(plain, str):
        return plain
    failed = [status for status, _ in plain if status != 0]
    if failed:
        return f"not compared: plain program exits with status {failed[0]}"
    return "outputs match" if program_outputs(steps, "ltoad") == plain else "MISMATCH"


def bench_project(name: str, source: Path, work: Path, recorders: dict[str, Path], repeat: int) -> list[StepResult]:
    print(f"bench: building {name}", file=sys.stderr, flush=True)
    steps = build_project(name, source, work, recorders)
    results = []
    for step in steps:
        print(f"bench: timing {step.name}", file=sys.stderr, flush=True)
        results.append(measure(step, repeat))
    check = compare_outputs(steps)
    for result in results:
        result.check = check
    return results


def integration_projects() -> list[Path]:
    if not INTEGRATION.is_dir():
        return []
    return [p for p in sorted(INTEGRATION.iterdir()) if p.is_dir() and build_system(p)]


def generated_project(name: str, work: Path) -> Path:
    source = work / "sources" / name
    gen_project.generate(source, GENERATED[name])
    return source


def format_table(header: list[str], rows: list[list[str]]) -> str:
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    lines = ["  ".join(c.rjust(w) if i else c.ljust(w) for i, (c, w) in enumerate(zip(r, widths)))
             for r in [header, *rows]]
    lines.insert(1, "-" * len(lines[0]))
    return "\n".join(lines)


def timing_table(results: list[StepResult], notes: list[tuple[str, str]]) -> str:
    header = ["link step", "IR lines", "plain min", "plain med", "ltoad min", "ltoad med", "ratio", "outputs"]
    rows = [[r.name, str(r.ir_lines or "?"), f"{min(r.times['plain']):.3f}", f"{r.median('plain'):.3f}",
             f"{min(r.times['ltoad']):.3f}", f"{r.median('ltoad'):.3f}", f"{r.ratio:.2f}", r.check]
            for r in results]
    rows += [[name, "", "", "", "", "", "", note] for name, note in notes]
    return format_table(header, rows)


def breakdown_table(results: list[StepResult]) -> str:
    header = ["link step", *(f"plain {p}" for p in PLAIN_PARTS), *(f"ltoad {p}" for p in LTOAD_PARTS)]
    rows = []
    for r in results:
        plain = median_parts(r.plain_parts, PLAIN_PARTS)
        ltoad = median_parts(r.ltoad_parts, LTOAD_PARTS)
        rows.append([r.name, *(f"{plain[p]:.3f}" for p in PLAIN_PARTS), *(f"{ltoad[p]:.3f}" for p in LTOAD_PARTS)])
    return format_table(header, rows)


def geometric_mean(values: list[float]) -> float:
    return math.exp(sum(map(math.log, values)) / len(values))


def report(results: list[StepResult], notes: list[tuple[str, str]], repeat: int) -> str:
    text = [f"ltoad link time vs plain full LTO (clang-22 -flto -fuse-ld=lld), {repeat} runs each, seconds",
            "", timing_table(results, notes)]
    if results:
        ratios = [r.ratio for r in results]
        mean = geometric_mean(ratios)
        met = sum(ratio <= TARGET_RATIO for ratio in ratios)
        text += ["", "where the time goes (medians, seconds)", "", breakdown_table(results), "",
                 f"geometric mean of ratios: {mean:.2f} over {len(ratios)} link steps; "
                 f"target <= {TARGET_RATIO} (no AD request): met by {met} of {len(ratios)}"]
    return "\n".join(text)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="timed links per side (default 5)")
    parser.add_argument("--large", action="store_true", help="also time a generated project of about 200k IR lines")
    parser.add_argument("--json", type=Path, metavar="FILE", help="also write the numbers as JSON")
    args = parser.parse_args(argv)
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    results: list[StepResult] = []
    notes: list[tuple[str, str]] = []
    with tempfile.TemporaryDirectory(prefix="ltoad-bench-") as tmp:
        work = Path(tmp)
        recorders = write_recorders(work / "recorders")
        projects = [(p.name, p) for p in integration_projects()]
        if not projects:
            notes.append(("integration projects", "not present"))
        projects += [(name, generated_project(name, work)) for name in GENERATED
                     if args.large or name != "generated-200k"]
        for name, source in projects:
            try:
                results += bench_project(name, source, work, recorders, args.repeat)
            except BenchError as e:
                print(f"bench: {e}", file=sys.stderr)
                notes.append((name, "build or link failed (see stderr)"))
    print(report(results, notes, args.repeat))
    if args.json:
        ratios = [r.ratio for r in results]
        args.json.write_text(json.dumps({
            "repeat": args.repeat, "target_ratio": TARGET_RATIO, "steps": [r.as_json() for r in results],
            "not_measured": dict(notes), "geometric_mean_ratio": geometric_mean(ratios) if ratios else None,
        }, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
