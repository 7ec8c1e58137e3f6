"""Shared helpers for the unit and numeric tiers: tool paths and small build commands."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

BIN = Path(sys.executable).parent
ROOT = Path(__file__).resolve().parent.parent


def tool_env(**extra: str) -> dict[str, str]:
    """The environment with the ltoad tools first on PATH."""
    env = dict(os.environ)
    env["PATH"] = f"{BIN}{os.pathsep}{env.get('PATH', '')}"
    env.pop("LTOAD_VERBOSE", None)
    env.pop("LTOAD_CONFIG", None)
    env.update(extra)
    return env


def run(argv: list[str], cwd: Path, check: bool = True, **extra: str) -> subprocess.CompletedProcess:
    result = subprocess.run(argv, cwd=cwd, env=tool_env(**extra), capture_output=True, text=True)
    if check and result.returncode != 0:
        pytest.fail(f"command failed ({result.returncode}): {' '.join(map(str, argv))}\n"
                    f"stdout:\n{result.stdout}\nstderr:\n{result.stderr}")
    return result


def write(directory: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (directory / name).write_text(text)


def build_and_run(tmp_path: Path, source: str, level: str) -> str:
    """Build one C program through ltoad-clang at `level` (with -lm), run it, return stdout."""
    write(tmp_path, {"prog.c": source})
    run(["ltoad-clang", level, "prog.c", "-lm", "-o", "prog"], tmp_path)
    return run(["./prog"], tmp_path).stdout
