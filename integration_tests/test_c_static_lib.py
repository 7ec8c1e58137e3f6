"""c_static_lib: a Makefile project archiving five C files into libnum.a, linked with -lnum -lm."""

import pytest

from harness import (assert_bitcode, assert_same_output, ltoad_toolchain, make_build, reference_toolchain,
                     require_tool, run_program)

# The driver runs with its default grid and with a smaller one given on the command line.
RUNS = [(), ("30", "20", "100")]


@pytest.mark.slow
@pytest.mark.parametrize(("archiver", "opt"), [("ar", "-O2"), ("llvm-ar-22", "-O2 -g")])
def test_static_library_program_matches_reference(tmp_path, archiver, opt):
    archiver_path = require_tool(archiver)
    reference = make_build("c_static_lib", tmp_path, reference_toolchain(), opt, AR=archiver_path)
    ltoad = make_build("c_static_lib", tmp_path, ltoad_toolchain(), opt, AR=archiver_path)

    assert_bitcode(ltoad / "main.o")
    assert_bitcode(ltoad / "libnum.a")
    for args in RUNS:
        expected = run_program(reference / "heatsim", args)
        assert_same_output(expected, run_program(ltoad / "heatsim", args), f"heatsim {' '.join(args)}".strip())
