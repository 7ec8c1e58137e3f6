"""cargo_ad: gradients of Rust functions, defined at link time from the workspace's ltoad.yaml.

The workspace (library crate `physics`, binary crate `gradcheck` depending on it by path)
carries no Cargo settings: each test writes them with `ltoad cargo-config --write`, as a user
would, builds the workspace and runs `gradcheck`. It declares `grad_loss` (derivative of the
`#[no_mangle] extern "C" fn physics_loss`) and `grad_energy` (derivative of the mangled
`physics::chain::energy`, named by its path in ltoad.yaml), compares both gradients with central
finite differences of the functions themselves, prints the largest relative error of each and
exits non-zero when one is above 1e-6.

The cargo features `heap` (a Vec of active values that grows) and `zipped` (iterator structs
that hold slice pointers as integers) add harder checks. In a debug build the Vec's allocation
goes through std's shared generic code, native in the std rlibs: its body comes from the
bitcode rustc embeds in them.
"""

import re
import tomllib

import pytest
from harness import (
    assert_linked_by_ltoad,
    base_env,
    copy_project,
    require_tool,
    run_checked,
    run_program,
)

TOLERANCE = 1e-6
HOST = "x86_64-unknown-linux-gnu"

# (profile, CARGO_PROFILE_RELEASE_OPT_LEVEL): the debug profile, and release at each opt-level.
BUILDS = [("debug", None), ("release", "0"), ("release", "1"), ("release", "2"), ("release", "3")]


def workspace(tmp_path):
    """A copy of cargo_ad with the .cargo/config.toml `ltoad cargo-config --write` makes."""
    project = copy_project("cargo_ad", tmp_path / "workspace")
    written = run_checked("ltoad cargo-config --write", [require_tool("ltoad"), "cargo-config", "--write", project],
                          tmp_path, base_env())
    config_path = project / ".cargo" / "config.toml"
    assert written.stdout.strip() == f"wrote {config_path}"
    target = tomllib.loads(config_path.read_text())["target"][HOST]
    assert target["linker"] == require_tool("ltoad-clang")
    assert "-Clinker-plugin-lto" in target["rustflags"]
    return project


def cargo_build(project, target_dir, profile, opt_level, features=()):
    """Build the workspace with nothing but the written config; return gradcheck and the build."""
    args = [require_tool("cargo"), "build", "--locked", "--workspace"]
    if profile == "release":
        args.append("--release")
    if features:
        args += ["--features", ",".join(f"gradcheck/{feature}" for feature in features)]
    env = base_env(CARGO_NET_OFFLINE="true", CARGO_TARGET_DIR=str(target_dir), LTOAD_VERBOSE="1")
    if opt_level is not None:
        env["CARGO_PROFILE_RELEASE_OPT_LEVEL"] = opt_level
    what = f"cargo build ({profile}{'' if opt_level is None else ', opt-level ' + opt_level})"
    return target_dir / profile / "gradcheck", run_checked(what, args, project, env)


def gradient_errors(output):
    """{function: largest relative error} from gradcheck's `NAME: max_rel_error=E` lines."""
    return {m[1]: float(m[2]) for m in re.finditer(r"^(\S+): max_rel_error=(\S+)$", output, re.MULTILINE)}


def check_gradients(tmp_path, profile, opt_level, features=(), log=None):
    project = workspace(tmp_path)
    program, build = cargo_build(project, tmp_path / "target", profile, opt_level, features)
    if log is not None:
        log.append(build.stderr)
    assert_linked_by_ltoad(build.stderr, f"cargo build ({profile})")
    assert f"ltoad: ltoad-ld: config {project / 'ltoad.yaml'}" in build.stderr, \
        "the link did not use the workspace's ltoad.yaml"
    output = run_program(program)   # gradcheck exits non-zero when a gradient is off
    errors = gradient_errors(output)
    assert {"physics_loss", "physics::chain::energy"} <= set(errors), output
    assert all(error <= TOLERANCE for error in errors.values()), output
    return errors


@pytest.mark.slow
@pytest.mark.parametrize(("profile", "opt_level"), BUILDS,
                         ids=[profile if level is None else f"opt{level}" for profile, level in BUILDS])
def test_rust_gradients_match_finite_differences(tmp_path, profile, opt_level):
    errors = check_gradients(tmp_path, profile, opt_level)
    assert set(errors) == {"physics_loss", "physics::chain::energy"}


@pytest.mark.slow
@pytest.mark.parametrize(("profile", "opt_level"), [
    pytest.param("release", "3", id="release"),
    pytest.param("debug", None, id="debug"),
])
def test_rust_gradient_through_vec(tmp_path, profile, opt_level):
    log: list[str] = []
    errors = check_gradients(tmp_path, profile, opt_level, features=["heap"], log=log)
    assert "physics::chain::smoothness" in errors
    if profile == "debug":   # std's shared RawVecInner code: bodies from the rlibs' .llvmbc
        assert re.search(r"ltoad-ld: bodies of .*RawVecInner.* from the bitcode embedded in "
                         r"\S+/lib\w+-\w+\.rlib\(", log[0]), log[0]


@pytest.mark.slow
def test_rust_gradient_through_zipped_chunks(tmp_path):
    errors = check_gradients(tmp_path, "release", "3", features=["zipped"])
    assert "physics::chain::zipped_energy" in errors
