"""`ltoad`: the user-facing command (toolchain check, explain, check-config, cargo-config)."""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

from ltoad import toolchain
from ltoad.diagnostics import LtoadError, report_error, report_internal_error


def _version() -> str:
    from importlib.metadata import version
    return version("ltoad")


def doctor(_args) -> int:
    """Print each pinned tool with its version line; fail if one is missing."""
    import llvmlite
    import llvmlite.binding as llvm
    print(f"ltoad {_version()}")
    print(f"llvmlite {llvmlite.__version__} (LLVM {'.'.join(map(str, llvm.llvm_version_info))})")
    for tool in ("clang", "clang++", "ld.lld", "llvm-ar"):
        path = toolchain.find(tool)
        first = subprocess.run([path, "--version"], capture_output=True, text=True).stdout
        print(f"{tool}: {path}: {first.splitlines()[0] if first else '?'}")
    return 0


def explain(args) -> int:
    """Print a function of an IR (.ll) or bitcode file annotated with activity and types."""
    from ltoad import ir, link
    from ltoad.ad.explain import explain as annotate
    try:
        data = open(args.file, "rb").read()
    except OSError as e:
        raise LtoadError(f"cannot open '{args.file}': {e.strerror}") from None
    if data[:4] in (b"BC\xc0\xde", b"\xde\xc0\x17\x0b"):
        text = str(link.Session().load(args.file, data).module)
    else:
        text = data.decode("utf-8", "replace")
    activities = args.args.split(",") if args.args else None
    print(annotate(ir.parse_module(text), args.function, activities))
    return 0


def check_config(args) -> int:
    """Validate an ltoad.yaml (the one a link in this directory would use, by default)."""
    from ltoad import configfile
    path = configfile.find(args.file)
    if path is None:
        raise LtoadError(f"no {configfile.FILE_NAME} here or in any parent directory "
                         "(and LTOAD_CONFIG is not set)")
    config = configfile.load(path)
    print(f"{path}: ok: {len(config.derivatives)} derivatives, {len(config.custom)} custom, "
          f"{len(config.inactive_functions)} inactive function patterns, "
          f"{len(config.inactive_globals)} inactive global patterns")
    for entry in config.derivatives:
        args = ", ".join(entry.args) if entry.args is not None else "by type"
        print(f"  {entry.name} = {entry.mode} derivative of {entry.of} ({args})")
    return 0


CARGO_TARGET = "x86_64-unknown-linux-gnu"
CARGO_RUSTFLAGS = ("-Clinker-plugin-lto", "-Wlinker-messages")


def ltoad_clang_path() -> str:
    """Absolute path of the ltoad-clang installed with this `ltoad` (else the one on PATH)."""
    beside = [os.path.dirname(os.path.abspath(sys.argv[0])), os.path.dirname(sys.executable)]
    for directory in beside:
        candidate = os.path.join(directory, "ltoad-clang")
        if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    found = shutil.which("ltoad-clang")
    if found is None:
        raise LtoadError(f"cannot find ltoad-clang next to ltoad ({beside[0]}) or on PATH")
    return os.path.abspath(found)


def cargo_config_text(linker: str) -> str:
    """The .cargo/config.toml that makes Cargo build and link Rust code through ltoad."""
    flags = ", ".join(json.dumps(flag) for flag in CARGO_RUSTFLAGS)
    return (
        "# Cargo settings for building with ltoad (from `ltoad cargo-config`).\n"
        "# Links go through ltoad-clang, which optimizes the whole program's LLVM bitcode and\n"
        "# defines the derivatives ltoad.yaml asks for. -Clinker-plugin-lto makes rustc emit that\n"
        "# bitcode; -Wlinker-messages shows ltoad's warnings. RUSTFLAGS in the environment\n"
        "# replaces these rustflags.\n"
        f"[target.{CARGO_TARGET}]\n"
        f"linker = {json.dumps(linker, ensure_ascii=False)}\n"
        f"rustflags = [{flags}]\n"
    )


def write_new_file(path: str, text: str, force: bool) -> None:
    """Write `path` atomically; an existing file is an error unless `force`."""
    directory = os.path.dirname(path)
    descriptor, temp = tempfile.mkstemp(prefix=f".{os.path.basename(path)}.", dir=directory)
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8") as f:
            f.write(text)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(temp, 0o666 & ~umask)
        if force:
            os.replace(temp, path)
        else:
            os.link(temp, path)   # fails if the file appeared meanwhile
    except FileExistsError:
        raise LtoadError(f"{path} already exists; pass --force to replace it") from None
    except OSError as e:
        raise LtoadError(f"cannot write {path}: {e.strerror}") from None
    finally:
        if os.path.exists(temp):
            os.unlink(temp)


def cargo_config(args) -> int:
    """Print the .cargo/config.toml for building with ltoad, or write it into a project."""
    text = cargo_config_text(ltoad_clang_path())
    if args.write is None:
        if args.force:
            raise LtoadError("--force applies only with --write")
        print(text, end="")
        return 0
    if not os.path.isdir(args.write):
        raise LtoadError(f"cannot write {os.path.join(args.write, '.cargo', 'config.toml')}: "
                         f"'{args.write}' is not a directory")
    cargo_dir = os.path.join(args.write, ".cargo")
    legacy = os.path.join(cargo_dir, "config")
    if os.path.isfile(legacy):
        raise LtoadError(f"Cargo reads {legacy} rather than config.toml; add the settings "
                         "`ltoad cargo-config` prints to it")
    path = os.path.join(cargo_dir, "config.toml")
    if os.path.exists(path) and not args.force:
        raise LtoadError(f"{path} already exists; pass --force to replace it "
                         "(`ltoad cargo-config` prints the settings to merge by hand)")
    try:
        os.makedirs(cargo_dir, exist_ok=True)
    except OSError as e:
        raise LtoadError(f"cannot create {cargo_dir}: {e.strerror}") from None
    write_new_file(path, text, args.force)
    print(f"wrote {path}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="ltoad", description="link-time automatic differentiation")
    parser.add_argument("--version", action="version", version=f"ltoad {_version()}")
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("doctor", help="check the LLVM 22 toolchain ltoad uses").set_defaults(run=doctor)
    show = commands.add_parser("explain", help="show what the differentiator sees in a function")
    show.add_argument("file", help="LLVM IR (.ll) or bitcode (.bc, .o)")
    show.add_argument("--function", required=True, help="the function to show")
    show.add_argument("--args", help="activities, e.g. dup,const,out (default: by type)")
    show.set_defaults(run=explain)
    check = commands.add_parser("check-config", help="validate an ltoad.yaml")
    check.add_argument("file", nargs="?", help="the file (default: as a link would find it)")
    check.set_defaults(run=check_config)
    cargo = commands.add_parser("cargo-config", help="print the .cargo/config.toml for building with ltoad")
    cargo.add_argument("--write", nargs="?", const=".", metavar="DIR",
                       help="write DIR/.cargo/config.toml (DIR: the current directory by default)")
    cargo.add_argument("--force", action="store_true", help="with --write: replace an existing file")
    cargo.set_defaults(run=cargo_config)
    args = parser.parse_args(argv)
    try:
        return args.run(args)
    except LtoadError as e:
        return report_error(e)
    except Exception as e:  # noqa: BLE001 - a bug must still end as one compiler-style line
        return report_internal_error(e)


if __name__ == "__main__":
    sys.exit(main())
