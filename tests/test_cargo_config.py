"""`ltoad cargo-config`: the .cargo/config.toml that builds Rust with ltoad, printed or written."""

import os
import stat
import subprocess
import sys
import tomllib

import pytest
from conftest import BIN, tool_env
from ltoad.drivers import cli

HOST = "x86_64-unknown-linux-gnu"


def target_settings(text: str) -> dict:
    return tomllib.loads(text)["target"][HOST]


@pytest.fixture
def ltoad_in(tmp_path, monkeypatch):
    """Run `ltoad cargo-config ...` in-process as if installed in tmp_path/bin next to a
    (stand-in) ltoad-clang; returns a function giving (status, stdout, stderr)."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    clang = bin_dir / "ltoad-clang"
    clang.write_text("#!/bin/sh\n")
    clang.chmod(0o755)
    monkeypatch.setattr(sys, "argv", [str(bin_dir / "ltoad")])

    def run(capsys, *args: str):
        status = cli.main(["cargo-config", *args])
        captured = capsys.readouterr()
        return status, captured.out, captured.err
    run.clang = str(clang)
    return run


def test_installed_command_prints_its_own_ltoad_clang(tmp_path):
    result = subprocess.run([str(BIN / "ltoad"), "cargo-config"], cwd=tmp_path, env=tool_env(),
                            capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    settings = target_settings(result.stdout)
    assert settings["linker"] == str(BIN / "ltoad-clang")
    assert settings["rustflags"][0] == "-Clinker-plugin-lto"
    assert not list(tmp_path.iterdir()), "printing must not write anything"


def test_linker_is_the_ltoad_clang_next_to_the_running_ltoad(ltoad_in, capsys):
    status, out, err = ltoad_in(capsys)
    assert (status, err) == (0, "")
    assert target_settings(out) == {"linker": ltoad_in.clang,
                                    "rustflags": ["-Clinker-plugin-lto", "-Wlinker-messages"]}


def test_paths_needing_escapes_stay_valid_toml():
    linker = '/opt/odd "dir"\\with\tcontrol/ltoad-clang'
    assert target_settings(cli.cargo_config_text(linker))["linker"] == linker


def test_write_puts_the_printed_text_in_dir_cargo_config(ltoad_in, capsys, tmp_path):
    project = tmp_path / "project"
    project.mkdir()
    _, printed, _ = ltoad_in(capsys)
    status, out, err = ltoad_in(capsys, "--write", str(project))
    path = project / ".cargo" / "config.toml"
    assert (status, out, err) == (0, f"wrote {path}\n", "")
    assert path.read_text() == printed
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(path.stat().st_mode) == 0o666 & ~umask
    assert os.listdir(project / ".cargo") == ["config.toml"], "no temporary file may be left"


def test_write_defaults_to_the_current_directory(ltoad_in, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    status, _, err = ltoad_in(capsys, "--write")
    assert (status, err) == (0, "")
    assert target_settings((tmp_path / ".cargo" / "config.toml").read_text())["linker"] == ltoad_in.clang


def test_write_refuses_to_replace_an_existing_file(ltoad_in, capsys, tmp_path):
    path = tmp_path / ".cargo" / "config.toml"
    path.parent.mkdir()
    path.write_text("[build]\njobs = 1\n")
    status, out, err = ltoad_in(capsys, "--write", str(tmp_path))
    assert (status, out) == (1, "")
    assert err.startswith("ltoad: error: ") and err.count("\n") == 1, err
    assert str(path) in err and "--force" in err
    assert path.read_text() == "[build]\njobs = 1\n"
    assert os.listdir(path.parent) == ["config.toml"]


def test_force_replaces_an_existing_file(ltoad_in, capsys, tmp_path):
    path = tmp_path / ".cargo" / "config.toml"
    path.parent.mkdir()
    path.write_text("[build]\njobs = 1\n")
    status, _, err = ltoad_in(capsys, "--write", str(tmp_path), "--force")
    assert (status, err) == (0, "")
    assert target_settings(path.read_text())["linker"] == ltoad_in.clang


@pytest.mark.parametrize(("args", "message"), [
    (["--write", "/nonexistent/project"], "'/nonexistent/project' is not a directory"),
    (["--force"], "--force applies only with --write"),
])
def test_usage_errors_are_one_line(ltoad_in, capsys, args, message):
    status, out, err = ltoad_in(capsys, *args)
    assert (status, out) == (1, "")
    assert err.startswith("ltoad: error: ") and err.count("\n") == 1 and message in err, err


def test_write_will_not_shadow_a_legacy_cargo_config(ltoad_in, capsys, tmp_path):
    legacy = tmp_path / ".cargo" / "config"
    legacy.parent.mkdir()
    legacy.write_text("")
    status, _, err = ltoad_in(capsys, "--write", str(tmp_path))
    assert status == 1 and str(legacy) in err, err
    assert not (tmp_path / ".cargo" / "config.toml").exists()
