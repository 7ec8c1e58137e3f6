"""ltoad-ld: the linker clang runs for ltoad (ld.lld's command line).

Collects the bitcode among the inputs, runs ltoad's whole-program pipeline on it, and calls
ld.lld-22 with the original command line where the bitcode inputs are replaced by one native
object. Without bitcode inputs it is ld.lld-22 itself. The output appears atomically.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time

from ltoad import bitcode, toolchain
from ltoad.diagnostics import LtoadError, log, report_error, report_internal_error

from . import ld_args, response


OBJECT_SUFFIXES = (".o", ".obj", ".a", ".rlib", ".lo")


def main() -> int:
    try:
        return link(sys.argv[1:])
    except LtoadError as e:
        return report_error(e)
    except KeyboardInterrupt:
        return 130
    except Exception as e:  # noqa: BLE001 - a bug must still end as one compiler-style line
        return report_internal_error(e)


def link(raw_argv: list[str]) -> int:
    start = time.perf_counter()
    cmd = ld_args.parse(response.expand(raw_argv))
    log(f"ltoad-ld: argv: {' '.join(raw_argv)}")
    lld = toolchain.find("ld.lld")
    resolved = resolve_paths(cmd)
    if cmd.relocatable or not any(_holds_bitcode(path, kind) for _, path, kind in resolved):
        reason = "relocatable link" if cmd.relocatable else "no bitcode inputs"
        log(f"ltoad-ld: pass-through to ld.lld ({reason})")
        os.execv(lld, [lld, *cmd.argv])
    temp = reserve_temporary_output(cmd.output)
    workdir = tempfile.mkdtemp(prefix="ltoad-ld-")
    try:
        argv = _lto(cmd, _with_output(cmd, temp), resolved, workdir)
        log(f"ltoad-ld: total before ld.lld {time.perf_counter() - start:.3f}s")
        log(f"ltoad-ld: exec {lld} {' '.join(argv)}")
        status = subprocess.call([lld, *argv])
        if status == 0:
            os.replace(temp, cmd.output)
        return status
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
        if os.path.exists(temp):
            os.unlink(temp)


def reserve_temporary_output(output: str) -> str:
    """Create the file ld.lld writes before it is renamed to `output` (proves it is writable)."""
    directory, name = os.path.split(os.path.abspath(output))
    if os.path.isdir(output):
        raise LtoadError(f"cannot write output '{output}': it is a directory")
    temp = os.path.join(directory, f".{name}.ltoad-{os.getpid()}.tmp")
    try:
        with open(temp, "xb"):
            pass
    except OSError as e:
        raise LtoadError(f"cannot write output '{output}': {e.strerror}") from None
    return temp


def _with_output(cmd: ld_args.LdCommand, temp: str) -> list[str]:
    """cmd.argv writing to `temp` instead of the output (-o X, -oX and --output=X forms)."""
    argv = list(cmd.argv)
    if cmd.output_index is None:
        return argv + ["-o", temp]
    token = argv[cmd.output_index]
    argv[cmd.output_index] = token[:len(token) - len(cmd.output)] + temp
    return argv


def _lto(cmd: ld_args.LdCommand, argv: list[str], resolved, workdir: str) -> list[str]:
    """Run the pipeline; return the ld.lld argv with bitcode replaced by the new object."""
    from ltoad import configfile, link, pipeline, resolve   # llvmlite only where bitcode is linked

    config = configfile.load(configfile.find(cmd.ltoad.config))
    if config.path:
        log(f"ltoad-ld: config {config.path}")
    session = link.Session()
    inputs = [resolve.LinkInput(path, kind, ref.whole_archive) for ref, path, kind in resolved]
    result = resolve.resolve(inputs, session.load, cmd.required)
    prefix = f"{cmd.output}.ltoad" if cmd.ltoad.save_temps else None
    level = config.options.opt_level
    options = pipeline.PipelineOptions(
        opt_level=cmd.opt_level if level is None else level, cpu=cmd.cpu,
        export_all=cmd.export_all, keep=frozenset(result.native_refs | cmd.keep),
        ad_before_opt=cmd.ltoad.ad_before_opt or config.options.ad_before_opt,
        save_temps_prefix=prefix, config=config, output=cmd.output,
        report=cmd.ltoad.report or config.options.report,
        rlibs=tuple(path for _, path, kind in resolved if kind == "archive" and path.endswith(".rlib")))
    times = pipeline.PhaseTimes()
    obj = pipeline.run(session, result.loaded, options, times)
    log(f"ltoad-ld: {len(result.loaded)} bitcode modules; {times.summary()}")
    obj_path = os.path.join(workdir, "ltoad-lto.o")
    with open(obj_path, "wb") as f:
        f.write(obj)
    if prefix:
        shutil.copyfile(obj_path, f"{prefix}.o")
    return _replace_bitcode(argv, resolved, result.bitcode_archives, obj_path, workdir)


def _replace_bitcode(original: list[str], resolved, bitcode_archives, obj_path: str, workdir: str) -> list[str]:
    replacement: dict[int, tuple[int, list[str]]] = {}
    placed = False
    for ref, path, kind in resolved:
        if kind == "bitcode":
            replacement[ref.first] = (ref.count, [] if placed else [obj_path])
            placed = True
        elif path in bitcode_archives:
            native = _native_copy(bitcode_archives[path], workdir, len(replacement))
            replacement[ref.first] = (ref.count, [native] if native else [])
    if not placed:
        first = min(replacement)
        count, tokens = replacement[first]
        replacement[first] = (count, [obj_path, *tokens])
    argv: list[str] = []
    i = 0
    while i < len(original):
        count, tokens = replacement.get(i, (1, [original[i]]))
        argv.extend(tokens)
        i += count
    return argv


def _native_copy(archive: bitcode.Archive, workdir: str, serial: int) -> str | None:
    """A copy of the archive without its bitcode members, or None if nothing native is left."""
    native = [m for m in archive.members if not m.is_bitcode and not m.name.endswith(".rmeta")]
    if not native:
        log(f"ltoad-ld: dropping {archive.path} (bitcode only)")
        return None
    path = os.path.join(workdir, f"native{serial}-{os.path.basename(archive.path)}")
    bitcode.write_archive(path, native)
    log(f"ltoad-ld: {archive.path}: {len(native)} native members kept in {path}")
    return path


def _holds_bitcode(path: str, kind: str) -> bool:
    if kind == "bitcode":
        return True
    return kind == "archive" and bitcode.read_archive(path).has_bitcode()


def resolve_paths(cmd: ld_args.LdCommand) -> list[tuple[ld_args.InputRef, str, str]]:
    """Each input with its file path (libraries searched in -L order) and its kind."""
    out = []
    for ref in cmd.inputs:
        path = find_library(ref.spec, cmd.lib_dirs, ref.static_only) if ref.is_library \
            else ref.spec
        try:
            kind = bitcode.file_kind(path)
        except OSError as e:
            raise LtoadError(f"cannot open '{path}': {e.strerror}") from None
        if kind == "other" and path.endswith(OBJECT_SUFFIXES):
            raise LtoadError(f"{path}: not an object file, archive or bitcode "
                             "(unrecognized format: corrupt or not built for this target)")
        out.append((ref, path, kind))
    return out


def find_library(name: str, dirs: list[str], static_only: bool) -> str:
    if name.startswith(":"):
        candidates = [name[1:]]
    else:
        candidates = ([] if static_only else [f"lib{name}.so"]) + [f"lib{name}.a"]
    for directory in dirs:
        for candidate in candidates:
            path = os.path.join(directory, candidate)
            if os.path.isfile(path):
                return path
    searched = ", ".join(dirs) if dirs else "no -L directories"
    raise LtoadError(f"unable to find library -l{name} (searched: {searched})")


