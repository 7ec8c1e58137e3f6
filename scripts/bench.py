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

The scale section (--scale adds it, --scale-only runs nothing else; about 3 minutes on two
cores at the default --repeat 5) generates a 200-unit project (4 kernels per unit: 131k lines
of IR from clang-22 -O2 -flto, 116k from ltoad-clang, which leaves vectorization to the link;
scripts/gen_project.py) twice, without and with --request, builds each with ltoad
and times its link the same way (without the traced links). The plain side of the request
project also links a stub object defining __enzyme_autodiff and the markers. For each it reports
the merged module's IR lines (the bitcode objects joined by llvm-link-22), the lines ltoad-ld
holds when AD starts, plain and ltoad medians and their ratio, and how much of ltoad-ld's own
time is Python: its "total before ld.lld" minus the phases that run inside libLLVM (merge,
internalize, pre-ad-optimize, hand-over, optimize, codegen), as seconds and as a share of that
total. A table of ltoad-ld's phase medians follows, and ltoad-ld's "AD parsed N of M functions"
line when it prints one. Checks: without the request both programs print the same; with it,
the program's gradient-vs-finite-differences error is shown and every other line must match.

    scripts/bench [--repeat N] [--large] [--scale | --scale-only] [--scale-files N]
                  [--scale-kernels K] [--json FILE]
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
AD_PARSED_LINE = re.compile(r"ltoad-ld: (AD parsed \d+ of \d+ functions)")

# The scale section: a generated project of SCALE_FILES units, linked without and with a
# derivative request (gen_project.py --request). At 4 kernels per unit the merged module is
# about 131k lines of IR as clang-22 -O2 -flto compiles it, 116k as ltoad-clang does (3 kernels
# would give just under 100k).
SCALE_FILES = 200
SCALE_KERNELS = 4
# ltoad-ld phases that run inside libLLVM; the rest of its total before ld.lld is Python.
LLVM_PHASES = ("merge", "internalize", "pre-ad-optimize", "hand-over", "optimize", "codegen")
PHASE_ORDER = ("merge", "internalize", "requests", "pre-ad-optimize", "ad", "hand-over", "optimize", "codegen")
# Plain LTO cannot answer __enzyme_autodiff; its side of the request project links this stub.
ENZYME_STUB = """\
int enzyme_dup, enzyme_const;
double __enzyme_autodiff(void *f, ...) { (void)f; return 0.0; }
"""


class BenchError(Exception):
    """A project could not be built or linked; the message ends with the tail of the output."""


@dataclass
class LinkStep:
    """One recorded link command, run again with another output name."""
    project: str
    cwd: Path
    lang: str
    args: list[str]
    plain_extra: tuple[str, ...] = ()   # inputs only the plain side links (the AD stub)

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
        return [plain_tool, *args, *self.plain_extra, *PLAIN_LINK_FLAGS, *extra]

    def side_output(self, side: str) -> str:
        return f"{self.output}.bench-{side}"


@dataclass
class StepResult:
    name: str
    ir_lines: int | None = None
    times: dict[str, list[float]] = field(default_factory=lambda: {"plain": [], "ltoad": []})
    plain_parts: list[dict[str, float]] = field(default_factory=list)
    ltoad_parts: list[dict[str, float]] = field(default_factory=list)
    ltoad_phases: list[dict[str, float]] = field(default_factory=list)
    ad_parsed: str | None = None
    check: str = ""

    def record(self, side: str, elapsed: float, lines: list[tuple[float, str]]) -> None:
        self.times[side].append(elapsed)
        if side == "ltoad":
            self.ltoad_parts.append(ltoad_parts(elapsed, lines))
            self.ltoad_phases.append(ltoad_phases(lines))
            self.ad_parsed = next((m.group(1) for _, line in lines if (m := AD_PARSED_LINE.search(line))),
                                  self.ad_parsed)

    def python_seconds(self) -> float | None:
        timed = [python_seconds(p) for p in self.ltoad_phases if p.get("total")]
        return statistics.median(timed) if timed else None

    def python_share(self) -> float | None:
        timed = [python_seconds(p) / p["total"] for p in self.ltoad_phases if p.get("total")]
        return statistics.median(timed) if timed else None

    def phase_medians(self) -> dict[str, float]:
        names = {name for p in self.ltoad_phases for name in p}
        return {name: statistics.median(p.get(name, 0.0) for p in self.ltoad_phases) for name in names}

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
    result = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, check=False)
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


def ltoad_phases(lines: list[tuple[float, str]]) -> dict[str, float]:
    """ltoad-ld's phase times from its summary line, and its total before ld.lld as 'total'."""
    phases: dict[str, float] = {}
    for _, line in lines:
        if summary := SUMMARY_LINE.search(line):
            phases.update((k, float(v)) for k, v in PHASE.findall(summary.group(1)))
        elif match := TOTAL_LINE.search(line):
            phases["total"] = float(match.group(1))
    return phases


def python_seconds(phases: dict[str, float]) -> float:
    """Seconds of ltoad-ld's total before ld.lld spent outside libLLVM's phases."""
    return phases.get("total", 0.0) - sum(phases.get(name, 0.0) for name in LLVM_PHASES)


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


def measure(step: LinkStep, repeat: int, traced: bool = True) -> StepResult:
    """Time one link step: a warm-up pair, then `repeat` alternating pairs (and a traced plain link)."""
    env = clean_env(LTOAD_VERBOSE="1")
    result = StepResult(step.name, ir_lines=merged_ir_lines(step, env))
    for side in ("plain", "ltoad"):
        link(step, side, env)
    for rep in range(repeat):
        for side in ("plain", "ltoad") if rep % 2 == 0 else ("ltoad", "plain"):
            result.record(side, *link(step, side, env))
        if traced:
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
            run = subprocess.run([str(step.cwd / step.output)], cwd=step.cwd, capture_output=True, check=False,
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


@dataclass
class ScaleRow:
    result: StepResult
    request: bool
    merged_lines: int | None


def bitcode_ir_lines(project: Path) -> int | None:
    """Lines of IR of the generated project's bitcode objects (main.o, unit*.o) merged by llvm-link-22."""
    objects = [project / "main.o", *sorted(project.glob("unit*.o"))]
    merged = project / "bench-merged.bc"
    try:
        run_quiet(["llvm-link-22", *map(str, objects), "-o", str(merged)], project, clean_env(), "llvm-link-22")
        text = subprocess.run(["llvm-dis-22", str(merged), "-o", "-"], stdout=subprocess.PIPE, check=True).stdout
    except (BenchError, OSError, subprocess.CalledProcessError) as e:
        print(f"bench: cannot count IR lines of {project.name}: {e}", file=sys.stderr)
        return None
    finally:
        merged.unlink(missing_ok=True)
    return text.count(b"\n")


def enzyme_stub(project: Path) -> Path:
    """A bitcode object defining __enzyme_autodiff and the markers, for the plain side's link."""
    (project / "enzyme-stub.c").write_text(ENZYME_STUB)
    run_quiet(["clang-22", "-O2", "-flto", "-c", "enzyme-stub.c", "-o", "enzyme-stub.o"], project, clean_env(),
              "compiling the __enzyme_autodiff stub")
    return project / "enzyme-stub.o"


def without_gradient(output: str) -> str:
    return "".join(line for line in output.splitlines(keepends=True)
                   if not line.startswith(("gradient[", "max relative error")))


def scale_check(step: LinkStep, request: bool) -> str:
    """Run both sides' programs; with a request, the gradient check replaces exact equality of its lines."""
    runs = {side: program_outputs([step], side) for side in ("plain", "ltoad")}
    for result in runs.values():
        if isinstance(result, str):
            return result
    (plain_status, plain), (ltoad_status, ltoad) = runs["plain"][0], runs["ltoad"][0]
    if plain_status or ltoad_status:
        return f"exit status: plain {plain_status}, ltoad {ltoad_status}"
    if not request:
        return "outputs match" if plain == ltoad else "MISMATCH"
    error = re.search(r"^max relative error (\S+)$", ltoad, re.MULTILINE)
    rest = "rest matches" if without_gradient(plain) == without_gradient(ltoad) else "rest MISMATCH"
    return f"gradient vs FD {float(error.group(1)):.1e}, {rest}" if error else f"no gradient check, {rest}"


def bench_scale(work: Path, recorders: dict[str, Path], repeat: int, files: int, kernels: int,
                notes: list[tuple[str, str]]) -> list[ScaleRow]:
    """Build and time the generated project without and with its derivative request."""
    rows = []
    for request in (False, True):
        name = f"scale-{files}" + ("-request" if request else "")
        source = work / "sources" / name
        gen_project.generate(source, files, kernels, request=request)
        try:
            print(f"bench: building {name}", file=sys.stderr, flush=True)
            step, *others = build_project(name, source, work, recorders)
            if others:
                raise BenchError(f"{name}: expected one link step, the build ran {1 + len(others)}")
            project = work / name
            if request:
                step.plain_extra = (str(enzyme_stub(project)),)
            lines = bitcode_ir_lines(project)
            print(f"bench: timing {step.name}", file=sys.stderr, flush=True)
            result = measure(step, repeat, traced=False)
            result.check = scale_check(step, request)
        except BenchError as e:
            print(f"bench: {e}", file=sys.stderr)
            notes.append((name, "build or link failed (see stderr)"))
            continue
        rows.append(ScaleRow(result, request, lines))
    return rows


def seconds(value: float | None) -> str:
    return "?" if value is None else f"{value:.3f}"


def percent(value: float | None) -> str:
    return "?" if value is None else f"{100 * value:.0f}%"


def scale_report(rows: list[ScaleRow], notes: list[tuple[str, str]], repeat: int, files: int,
                 kernels: int) -> str:
    header = ["project", "IR lines", "before AD", "plain med", "ltoad med", "ratio", "python s", "python share",
              "check"]
    table = [[r.result.name, str(r.merged_lines or "?"), str(r.result.ir_lines or "?"),
              f"{r.result.median('plain'):.3f}", f"{r.result.median('ltoad'):.3f}", f"{r.result.ratio:.2f}",
              seconds(r.result.python_seconds()), percent(r.result.python_share()), r.result.check]
             for r in rows]
    table += [[name, "", "", "", "", "", "", "", note] for name, note in notes]
    text = [(f"scale: {files} generated units ({kernels} kernels per unit) without and with one derivative request; "
             f"ltoad vs plain full LTO, {repeat} runs each, seconds"),
            "", format_table(header, table), "",
            ("IR lines: the bitcode objects merged by llvm-link-22; before AD: ltoad-ld's module when AD starts "
             "(after its pre-AD optimization when there is a request)"),
            f"python: ltoad-ld's total before ld.lld minus its libLLVM phases ({', '.join(LLVM_PHASES)})"]
    if rows:
        phases = [r.result.phase_medians() for r in rows]
        names = [n for n in PHASE_ORDER if any(n in p for p in phases)]
        names += sorted({n for p in phases for n in p} - set(names) - {"total"})
        header = ["ltoad-ld phases", *names, "python", "total"]
        table = [[r.result.name, *(f"{p.get(n, 0.0):.3f}" for n in names), seconds(r.result.python_seconds()),
                  f"{p.get('total', 0.0):.3f}"] for r, p in zip(rows, phases)]
        text += ["", "ltoad-ld phases (medians, seconds)", "", format_table(header, table)]
        text += [f"{r.result.name}: {r.result.ad_parsed}" for r in rows if r.result.ad_parsed]
    return "\n".join(text)


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
                 (f"geometric mean of ratios: {mean:.2f} over {len(ratios)} link steps; "
                  f"target <= {TARGET_RATIO} (no AD request): met by {met} of {len(ratios)}")]
    return "\n".join(text)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="timed links per side (default 5)")
    parser.add_argument("--large", action="store_true", help="also time a generated project of about 200k IR lines")
    parser.add_argument("--scale", action="store_true",
                        help="also run the scale section (a generated project without and with an AD request)")
    parser.add_argument("--scale-only", action="store_true", help="run the scale section only")
    parser.add_argument("--scale-files", type=int, default=SCALE_FILES, metavar="N",
                        help=f"units of the scale project (default {SCALE_FILES})")
    parser.add_argument("--scale-kernels", type=int, default=SCALE_KERNELS, metavar="K",
                        help=f"kernels per unit of the scale project (default {SCALE_KERNELS})")
    parser.add_argument("--json", type=Path, metavar="FILE", help="also write the numbers as JSON")
    args = parser.parse_args(argv)
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    if args.scale_files < 1 or args.scale_kernels < 0:
        parser.error("--scale-files must be at least 1 and --scale-kernels at least 0")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    results: list[StepResult] = []
    notes: list[tuple[str, str]] = []
    scale_rows: list[ScaleRow] = []
    scale_notes: list[tuple[str, str]] = []
    with tempfile.TemporaryDirectory(prefix="ltoad-bench-") as tmp:
        work = Path(tmp)
        recorders = write_recorders(work / "recorders")
        if not args.scale_only:
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
        if args.scale or args.scale_only:
            scale_rows = bench_scale(work, recorders, args.repeat, args.scale_files, args.scale_kernels, scale_notes)
    sections = [] if args.scale_only else [report(results, notes, args.repeat)]
    if args.scale or args.scale_only:
        sections.append(scale_report(scale_rows, scale_notes, args.repeat, args.scale_files, args.scale_kernels))
    print("\n\n".join(sections))
    if args.json:
        ratios = [r.ratio for r in results]
        numbers = {
            "repeat": args.repeat, "target_ratio": TARGET_RATIO, "steps": [r.as_json() for r in results],
            "not_measured": dict(notes), "geometric_mean_ratio": geometric_mean(ratios) if ratios else None,
        }
        if args.scale or args.scale_only:
            numbers["scale"] = {
                "files": args.scale_files, "kernels": args.scale_kernels, "not_measured": dict(scale_notes),
                "steps": [{**r.result.as_json(), "request": r.request, "merged_ir_lines": r.merged_lines,
                           "python_seconds": r.result.python_seconds(), "python_share": r.result.python_share(),
                           "ltoad_phases": r.result.phase_medians(), "ad_parsed": r.result.ad_parsed}
                          for r in scale_rows],
            }
        args.json.write_text(json.dumps(numbers, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
