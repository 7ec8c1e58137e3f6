"""`ltoad`: the user-facing command (toolchain check, explain, check-config)."""

from __future__ import annotations

import argparse
import subprocess
import sys

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
    args = parser.parse_args(argv)
    try:
        return args.run(args)
    except LtoadError as e:
        return report_error(e)
    except Exception as e:  # noqa: BLE001 - a bug must still end as one compiler-style line
        return report_internal_error(e)


if __name__ == "__main__":
    sys.exit(main())
