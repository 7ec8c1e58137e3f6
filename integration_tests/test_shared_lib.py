"""shared_lib: libkinetics.so (exported API, hidden helpers, global data) and a program using it."""

import pytest

from harness import (assert_bitcode, assert_same_output, base_env, ltoad_toolchain, make_build,
                     reference_toolchain, require_tool, run_checked, run_program)

LIBRARY = "libkinetics.so"


def exported_symbols(library):
    """Sorted (name, nm type letter) pairs of the library's defined dynamic symbols."""
    nm = run_checked("llvm-nm-22", [require_tool("llvm-nm-22"), "-D", "--defined-only", "--format=posix", library.name],
                     library.parent, base_env())
    return sorted((fields[0], fields[1]) for fields in map(str.split, nm.stdout.splitlines()) if fields)


def soname(library):
    dynamic = run_checked("llvm-readelf-22", [require_tool("llvm-readelf-22"), "-d", library.name], library.parent,
                          base_env())
    return [line.split()[-1] for line in dynamic.stdout.splitlines() if "(SONAME)" in line]


@pytest.mark.slow
def test_shared_library_program_matches_reference(tmp_path):
    reference = make_build("shared_lib", tmp_path, reference_toolchain())
    ltoad = make_build("shared_lib", tmp_path, ltoad_toolchain())
    assert_bitcode(ltoad / "kin_api.o")
    assert_bitcode(ltoad / "reactor.o")

    expected = run_program(reference / "reactor", env=base_env(LD_LIBRARY_PATH=str(reference)))
    actual = run_program(ltoad / "reactor", env=base_env(LD_LIBRARY_PATH=str(ltoad)))
    assert_same_output(expected, actual, "reactor")

    # The library must export the same API and keep its hidden helpers hidden.
    reference_exports = exported_symbols(reference / LIBRARY)
    assert "kin_safe_exp" not in dict(reference_exports) and "kin_step_exact" not in dict(reference_exports)
    assert exported_symbols(ltoad / LIBRARY) == reference_exports
    assert soname(ltoad / LIBRARY) == soname(reference / LIBRARY) == [f"[{LIBRARY}]"]

    # A program linked against the ltoad-built library also runs with the reference library.
    swapped = run_program(ltoad / "reactor", env=base_env(LD_LIBRARY_PATH=str(reference)))
    assert_same_output(expected, swapped, "ltoad-built reactor with the reference libkinetics.so")
