"""cargo_workspace: a binary crate and a path-dependency library crate, release and debug profiles.

The linker is chosen only through the environment, as a user would: the project itself carries
no .cargo/config.toml.
"""

import pytest

from harness import (assert_linked_by_ltoad, assert_same_output, base_env, copy_project, require_tool,
                     run_checked, run_program)

LINKER_VARIABLE = "CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_LINKER"


def cargo_build(project, target_dir, profile, **extra):
    args = [require_tool("cargo"), "build", "--locked", "--workspace"]
    if profile == "release":
        args.append("--release")
    env = base_env(CARGO_NET_OFFLINE="true", CARGO_TARGET_DIR=str(target_dir), **extra)
    result = run_checked(f"cargo build ({profile})", args, project, env)
    return target_dir / profile / "orbits", result


@pytest.mark.slow
@pytest.mark.parametrize("profile", ["release", "debug"])
def test_cargo_workspace_matches_reference(tmp_path, profile):
    project = copy_project("cargo_workspace", tmp_path / "workspace")
    reference, _ = cargo_build(project, tmp_path / "target-reference", profile)
    ltoad, build = cargo_build(
        project, tmp_path / "target-ltoad", profile,
        **{LINKER_VARIABLE: "ltoad-clang",
           # linker-messages makes rustc show the linker's stderr, where the verbose lines go.
           "RUSTFLAGS": "-Clinker-plugin-lto -Wlinker-messages",
           "LTOAD_VERBOSE": "1"},
    )
    assert_linked_by_ltoad(build.stderr, f"cargo build ({profile})")
    assert_same_output(run_program(reference), run_program(ltoad), f"orbits ({profile})")
