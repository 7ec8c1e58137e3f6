"""ltoad-clang's flag table: one decision per command line, checked on captured command lines."""

import json
from pathlib import Path

import pytest

from ltoad.drivers import flags

CAPTURED = [json.loads(line) for line in
            (Path(__file__).parent / "data" / "captured_clang_argv.jsonl").read_text().splitlines()]


@pytest.mark.parametrize("entry", CAPTURED, ids=lambda e: " ".join(e["argv"])[:60])
def test_captured_command_lines(entry):
    decision = flags.decide(entry["argv"], "/opt/ltoad/bin/ltoad-ld")
    assert decision.action == entry["action"]
    if decision.action == "link":
        assert "--ld-path=/opt/ltoad/bin/ltoad-ld" in decision.added
    if decision.action == "compile":
        assert "-flto=full" in decision.added


@pytest.mark.parametrize("argv, action", [
    (["--version"], "pass-through"),
    (["-v"], "pass-through"),
    (["-E", "-dM", "-x", "c", "/dev/null"], "pass-through"),
    (["-print-file-name=libgcc.a"], "pass-through"),
    (["-print-prog-name=ld", "x.c"], "pass-through"),
    (["-M", "a.c"], "pass-through"),
    (["-MM", "a.c"], "pass-through"),
    (["-S", "-O2", "a.c"], "pass-through"),
    (["-fsyntax-only", "a.c"], "pass-through"),
    (["-c", "start.S", "-o", "start.o"], "pass-through"),
    (["-c", "-fno-lto", "a.c"], "pass-through"),
    (["-c", "-x", "c", "-", "-o", "stdin.o"], "compile"),
    (["-c", "-x", "assembler", "a.c"], "pass-through"),
    (["-c", "-MD", "-MF", "a.d", "a.c"], "compile"),
    (["-c", "-o", "a.c.o", "a.c"], "compile"),
    (["-c", "-flto=thin", "a.cpp"], "compile"),
    (["-O2", "a.c", "b.c", "-lm", "-o", "prog"], "link"),
    (["-shared", "-fPIC", "a.o", "-o", "liba.so"], "link"),
    (["a.o", "-fuse-ld=bfd"], "link"),
    (["-c", "--", "a.c"], "compile"),
])
def test_decisions(argv, action):
    assert flags.decide(argv, "ltoad-ld").action == action


def test_value_of_option_is_not_an_input():
    inv = flags.scan(["-c", "-o", "x.c", "-MF", "deps.c", "-include", "pre.h", "real.c"])
    assert inv.sources == ["real.c"]


def test_added_flags_win_and_stay_before_double_dash():
    decision = flags.decide(["-c", "-flto=thin", "--", "a.c"], "ld")
    argv = flags.apply(["-c", "-flto=thin", "--", "a.c"], decision)
    assert argv.index("-flto=full") > argv.index("-flto=thin")
    assert argv.index("-flto=full") < argv.index("--")
