"""ltoad-ld's reading of ld.lld command lines, on lines clang-22 and rustc really produce."""

import json
from pathlib import Path

import pytest

from ltoad.diagnostics import LtoadError
from ltoad.drivers import ld_args

CAPTURED = {e["source"]: e["argv"] for e in map(
    json.loads, (Path(__file__).parent / "data" / "captured_ld_argv.jsonl").read_text().splitlines())}


def inputs(cmd):
    return [(r.spec, r.is_library, r.whole_archive, r.static_only) for r in cmd.inputs]


def test_executable_link():
    cmd = ld_args.parse(CAPTURED["clang-22 executable -O2"])
    assert cmd.output == "prog" and cmd.opt_level == 2 and cmd.cpu == "x86-64"
    assert cmd.lib_dirs[0] == "."
    specs = [spec for spec, *_ in inputs(cmd)]
    assert specs[:3] == ["/lib/x86_64-linux-gnu/Scrt1.o", "/lib/x86_64-linux-gnu/crti.o",
                         "/usr/lib/gcc/x86_64-linux-gnu/12/crtbeginS.o"]
    assert ("num", True, False, False) in inputs(cmd)
    assert "main.o" in specs and "/usr/lib/gcc/x86_64-linux-gnu/12/crtendS.o" in specs
    assert not cmd.export_all and not cmd.relocatable
    assert "-dynamic-linker" in cmd.argv  # everything is kept for ld.lld


def test_shared_link_exports_everything():
    cmd = ld_args.parse(CAPTURED["clang-22 -shared"])
    assert cmd.export_all and cmd.output == "libx.so"
    assert "libx.so" not in [r.spec for r in cmd.inputs]  # -soname's value is not an input


def test_static_whole_archive_and_undefined():
    cmd = ld_args.parse(CAPTURED["clang-22 -static -O3"])
    assert cmd.opt_level == 3 and "keep_me" in cmd.required
    assert ("libplug.a", False, True, True) in inputs(cmd)
    assert ("libnum.a", False, False, True) in inputs(cmd)
    assert ("main.o", False, False, True) in inputs(cmd)


def test_ltoad_options_are_removed():
    cmd = ld_args.parse(["a.o", "--ltoad-save-temps", "-rpath", "/tmp/b", "--ltoad-report=r.html",
                         "-o", "x"])
    assert cmd.ltoad.save_temps and cmd.ltoad.report == "r.html"
    assert not any(a.startswith("--ltoad") for a in cmd.argv)
    assert "/tmp/b" not in [r.spec for r in cmd.inputs]  # -rpath value


def test_rustc_link_line():
    cmd = ld_args.parse(CAPTURED["rustc 1.95 release via cargo"])
    specs = [r.spec for r in cmd.inputs]
    assert any(s.endswith("symbols.o") for s in specs)
    assert sum(s.endswith(".rcgu.o") for s in specs) == 2
    assert sum(s.endswith(".rlib") for s in specs) >= 10
    assert cmd.opt_level == 3 and cmd.export_all is False
    rlib = next(r for r in cmd.inputs if r.spec.endswith(".rlib"))
    assert rlib.static_only                       # inside -Bstatic
    gcc_s = next(r for r in cmd.inputs if r.spec == "gcc_s")
    assert not gcc_s.static_only                  # after -Bdynamic


@pytest.mark.parametrize("argv, attr, value", [
    (["-o", "out"], "output", "out"),
    (["-oout"], "output", "out"),
    (["--output=out"], "output", "out"),
    (["--lto-O3"], "opt_level", 3),
    (["--plugin-opt=O1"], "opt_level", 1),
    (["-export-dynamic"], "export_all", True),
    (["-E"], "export_all", True),
    (["-r"], "relocatable", True),
])
def test_spellings(argv, attr, value):
    assert getattr(ld_args.parse(argv), attr) == value


def test_joined_and_separate_library_forms():
    cmd = ld_args.parse(["-lm", "-l", "foo", "--library=bar", "-L/x", "-L", "/y"])
    assert [r.spec for r in cmd.inputs] == ["m", "foo", "bar"]
    assert cmd.lib_dirs == ["/x", "/y"]
    assert cmd.inputs[1].count == 2


def test_push_pop_state():
    cmd = ld_args.parse(["--push-state", "--whole-archive", "a.a", "--pop-state", "b.a"])
    assert [r.whole_archive for r in cmd.inputs] == [True, False]


def test_wrap_keeps_all_three_names():
    assert ld_args.parse(["--wrap=malloc"]).keep == {"malloc", "__wrap_malloc", "__real_malloc"}


@pytest.mark.parametrize("argv, message", [
    (["--ltoad-bogus"], "unknown ltoad option '--ltoad-bogus'"),
    (["--ltoad-config"], "needs a value"),
    (["-o"], "needs a value"),
])
def test_errors(argv, message):
    with pytest.raises(LtoadError, match=message):
        ld_args.parse(argv)
