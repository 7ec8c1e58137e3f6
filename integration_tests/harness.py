"""Shared helpers for the integration tests.

Every test copies a real project into a temporary directory, builds it once with the plain
LLVM 22 toolchain (the reference) and once through ltoad, runs both programs and compares their
standard output byte for byte. The reference build for C and C++ is `clang-22 -flto -fuse-ld=lld`,
which is exactly what an ltoad link without derivative requests must reproduce.
"""

from __future__ import annotations

import difflib
import os
import shlex
import shutil
import subprocess
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest

PROJECTS = Path(__file__).resolve().parent

# The ltoad tools are installed next to the interpreter that runs the tests (the virtual
# environment's bin directory). The path is deliberately not resolved: a venv's python is a
# symlink to the system interpreter.
TOOL_BIN = Path(sys.executable).parent

# Variables from the caller's environment that would change how the projects are built.
_BUILD_VARIABLES = (
    "CC", "CXX", "AR", "RANLIB", "LD", "CFLAGS", "CXXFLAGS", "CPPFLAGS", "LDFLAGS", "LDLIBS",
    "MAKEFLAGS", "MFLAGS", "MAKELEVEL", "RUSTFLAGS", "CARGO_ENCODED_RUSTFLAGS", "CARGO_BUILD_RUSTFLAGS",
    "CARGO_BUILD_TARGET", "CARGO_TARGET_DIR", "CMAKE_GENERATOR", "CMAKE_BUILD_PARALLEL_LEVEL",
)

# Captured output shown in a failure message is cut to this many characters (the end is kept).
_TAIL = 6000


def base_env(**extra: str) -> dict[str, str]:
    """The caller's environment without build settings, with the ltoad tools first on PATH."""
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in _BUILD_VARIABLES
        and not key.startswith("LTOAD_")
        and not (key.startswith("CARGO_TARGET_") and key.endswith("_LINKER"))
    }
    env["PATH"] = os.pathsep.join([str(TOOL_BIN), env.get("PATH", os.defpath)])
    env["LC_ALL"] = "C"
    env.update(extra)
    return env


def require_tool(name: str) -> str:
    """Full path of a tool on the test PATH; fails the test with a clear message if missing."""
    found = shutil.which(name, path=base_env()["PATH"])
    if found is None:
        pytest.fail(f"required tool {name!r} is not on PATH (searched {TOOL_BIN} first)")
    return found


@dataclass(frozen=True)
class CToolchain:
    """How a C/C++ project is built: compilers and the flags given to the build system."""

    label: str
    through_ltoad: bool
    cc: str
    cxx: str
    compile_flags: str
    link_flags: str

    def make_env(self, opt: str = "-O2", **extra: str) -> dict[str, str]:
        """Environment for a Makefile that reads CC, CXX, CFLAGS, CXXFLAGS and LDFLAGS."""
        flags = f"{opt} {self.compile_flags}".strip()
        return base_env(CC=self.cc, CXX=self.cxx, CFLAGS=flags, CXXFLAGS=flags, LDFLAGS=self.link_flags, **extra)

    def cmake_args(self) -> list[str]:
        """Cache definitions selecting these compilers and flags for a CMake configure step."""
        args = [f"-DCMAKE_C_COMPILER={self.cc}", f"-DCMAKE_CXX_COMPILER={self.cxx}"]
        if self.compile_flags:
            args += [f"-DCMAKE_C_FLAGS={self.compile_flags}", f"-DCMAKE_CXX_FLAGS={self.compile_flags}"]
        if self.link_flags:
            for kind in ("EXE", "SHARED", "MODULE"):
                args.append(f"-DCMAKE_{kind}_LINKER_FLAGS={self.link_flags}")
        return args


def reference_toolchain() -> CToolchain:
    """Plain LLVM 22 with full LTO and lld: the behaviour ltoad must match."""
    return CToolchain("reference", False, require_tool("clang-22"), require_tool("clang++-22"), "-flto", "-fuse-ld=lld")


def ltoad_toolchain() -> CToolchain:
    """ltoad's compiler wrappers with the project's own flags and nothing else."""
    return CToolchain("ltoad", True, require_tool("ltoad-clang"), require_tool("ltoad-clang++"), "", "")


def copy_project(name: str, dest: Path) -> Path:
    """Copy integration_tests/<name> to dest (which must not exist) without build products."""
    ignore = shutil.ignore_patterns("target", "build", "*.o", "*.a", "*.so", "*.d", "__pycache__")
    shutil.copytree(PROJECTS / name, dest, ignore=ignore)
    return dest


def _tail(text: str) -> str:
    return text if len(text) <= _TAIL else "[...]\n" + text[-_TAIL:]


def failure_report(what: str, cmd: Sequence[str], cwd: Path, result: subprocess.CompletedProcess[str],
                   env_keys: Iterable[tuple[str, str]] = ()) -> str:
    """A readable description of a failed command with its captured output."""
    settings = " ".join(f"{k}={shlex.quote(v)}" for k, v in env_keys)
    return (
        f"{what} failed with exit status {result.returncode}\n"
        f"  command: {shlex.join(cmd)}\n"
        f"  in: {cwd}\n"
        + (f"  with: {settings}\n" if settings else "")
        + f"--- stdout ---\n{_tail(result.stdout)}\n--- stderr ---\n{_tail(result.stderr)}"
    )


_REPORTED_SETTINGS = ("CC", "CXX", "AR", "CFLAGS", "CXXFLAGS", "LDFLAGS", "RUSTFLAGS", "LTOAD_VERBOSE",
                      "CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_LINKER", "CARGO_TARGET_DIR")


def run_checked(what: str, cmd: Sequence[str], cwd: Path, env: Mapping[str, str],
                timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """Run cmd; fail the test with its output unless it exits with status 0."""
    cmd = [str(c) for c in cmd]
    try:
        result = subprocess.run(cmd, cwd=cwd, env=dict(env), capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired as exc:
        pytest.fail(f"{what} did not finish within {timeout} s: {shlex.join(cmd)} (in {cwd})\n"
                    f"--- stderr ---\n{_tail(exc.stderr.decode(errors='replace') if exc.stderr else '')}")
    if result.returncode != 0:
        keys = [(k, env[k]) for k in _REPORTED_SETTINGS if k in env]
        pytest.fail(failure_report(what, cmd, cwd, result, keys))
    return result


def run_program(program: Path, args: Sequence[str] = (), cwd: Path | None = None,
                env: Mapping[str, str] | None = None) -> str:
    """Run a built program and return its standard output; it must exit with status 0."""
    if not program.is_file():
        pytest.fail(f"the build reported success but produced no {program}")
    result = run_checked(f"running {program.name}", [program, *args], cwd or program.parent, env or base_env(), 120)
    return result.stdout


def assert_same_output(reference: str, candidate: str, what: str) -> None:
    """Byte-for-byte comparison with a short diff on mismatch."""
    assert reference, f"{what}: the reference build printed nothing, so the comparison would be empty"
    if candidate != reference:
        diff = difflib.unified_diff(reference.splitlines(), candidate.splitlines(), "reference", "ltoad",
                                    lineterm="", n=1)
        lines = list(diff)
        shown = "\n".join(lines[:80]) + ("\n[...]" if len(lines) > 80 else "")
        pytest.fail(f"{what}: output of the ltoad build differs from the reference build\n{shown}")


def assert_linked_by_ltoad(build_stderr: str, what: str) -> None:
    """The build ran with LTOAD_VERBOSE=1: some ltoad decision line must name ltoad-ld."""
    lines = [line for line in build_stderr.splitlines() if "ltoad:" in line and "ltoad-ld" in line]
    if not lines:
        verbose = [line for line in build_stderr.splitlines() if "ltoad:" in line]
        pytest.fail(
            f"{what}: no 'ltoad:' line on stderr mentions ltoad-ld, so the link did not go through ltoad's linker\n"
            f"ltoad lines seen ({len(verbose)}):\n" + _tail("\n".join(verbose) or "(none)")
        )


def verbose_env(env: Mapping[str, str]) -> dict[str, str]:
    """env with ltoad's decision lines switched on."""
    return {**env, "LTOAD_VERBOSE": "1"}


BITCODE_MAGIC = b"BC\xc0\xde"


def assert_bitcode(path: Path) -> None:
    """An object file must be LLVM bitcode; an archive must hold bitcode members."""
    data = path.read_bytes()
    ok = BITCODE_MAGIC in data if data.startswith(b"!<arch>\n") else data.startswith(BITCODE_MAGIC)
    assert ok, f"{path} holds no LLVM bitcode, so the compile steps did not emit LTO bitcode"


def make(project: Path, env: Mapping[str, str], *targets: str, jobs: int = 2) -> subprocess.CompletedProcess[str]:
    """Run GNU make in project with variables taken from the environment."""
    return run_checked(f"make in {project.name}", ["make", f"-j{jobs}", *targets], project, env)


def make_build(name: str, workdir: Path, toolchain: CToolchain, opt: str = "-O2", **extra: str) -> Path:
    """Copy project `name` to workdir/<toolchain label> and build it with make -j2.

    The ltoad build runs with LTOAD_VERBOSE=1 and must show that its links went through ltoad-ld.
    Returns the build directory.
    """
    project = copy_project(name, workdir / toolchain.label)
    env = toolchain.make_env(opt, **extra)
    if toolchain.through_ltoad:
        env = verbose_env(env)
    build = make(project, env)
    if toolchain.through_ltoad:
        assert_linked_by_ltoad(build.stderr, f"make in {name}")
    return project
