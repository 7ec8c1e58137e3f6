"""cmake_cxx: a C++17 CMake project (static library + executable) built out of tree."""

import pytest

from harness import (assert_bitcode, assert_linked_by_ltoad, assert_same_output, base_env, copy_project,
                     ltoad_toolchain, reference_toolchain, require_tool, run_checked, run_program, verbose_env)


def cmake_build(workdir, toolchain):
    """Configure and build a copy of the project in workdir/<label>/{src,build}; returns the build dir."""
    source = copy_project("cmake_cxx", workdir / toolchain.label / "src")
    build = workdir / toolchain.label / "build"
    env = base_env()
    if toolchain.through_ltoad:
        env = verbose_env(env)
    cmake = require_tool("cmake")
    configure = [cmake, "-S", source, "-B", build, "-DCMAKE_BUILD_TYPE=Release", *toolchain.cmake_args()]
    run_checked(f"cmake configure ({toolchain.label})", configure, workdir, env)
    result = run_checked(f"cmake build ({toolchain.label})", [cmake, "--build", build, "--parallel", "2"], workdir, env)
    if toolchain.through_ltoad:
        assert_linked_by_ltoad(result.stderr, "cmake --build")
    return build


@pytest.mark.slow
def test_cmake_project_matches_reference(tmp_path):
    reference = cmake_build(tmp_path, reference_toolchain())
    ltoad = cmake_build(tmp_path, ltoad_toolchain())
    assert_bitcode(ltoad / "libepimodels.a")
    assert_same_output(run_program(reference / "epi_sim"), run_program(ltoad / "epi_sim"), "epi_sim")
