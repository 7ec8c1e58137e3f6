"""ltoad-ld end to end on small programs: archive semantics, exports, save-temps, bad input."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import run, write

MAIN = '#include <stdio.h>\nint used(int);\nint main(void){printf("%d\\n", used(20)); return 0;}\n'
USED = "int used(int x){return x + 22;}\n"
UNUSED = "int missing_everywhere(int);\nint unused(int x){return missing_everywhere(x);}\n"


def build(tmp: Path, files: dict[str, str], *objects: str) -> None:
    write(tmp, files)
    for name in objects:
        run(["ltoad-clang", "-O2", "-c", f"{name}.c"], tmp)


def test_archive_members_are_extracted_lazily(tmp_path):
    build(tmp_path, {"main.c": MAIN, "used.c": USED, "unused.c": UNUSED}, "main", "used", "unused")
    run(["llvm-ar-22", "rcs", "libx.a", "used.o", "unused.o"], tmp_path)
    run(["ltoad-clang", "main.o", "-L.", "-lx", "-o", "prog"], tmp_path)
    assert run(["./prog"], tmp_path).stdout == "42\n"


def test_gnu_ar_thin_and_whole_archive(tmp_path):
    build(tmp_path, {"main.c": MAIN, "used.c": USED, "ctor.c":
                     '#include <stdio.h>\n__attribute__((constructor)) static void hi(void)'
                     '{puts("ctor");}\nint ctor_anchor;\n'}, "main", "used", "ctor")
    run(["ar", "rcsT", "libthin.a", "used.o"], tmp_path)
    run(["llvm-ar-22", "rcs", "libctor.a", "ctor.o"], tmp_path)
    run(["ltoad-clang", "main.o", "libthin.a", "-Wl,--whole-archive", "libctor.a",
         "-Wl,--no-whole-archive", "-o", "prog"], tmp_path)
    assert run(["./prog"], tmp_path).stdout == "ctor\n42\n"


def test_mixed_archive_keeps_native_members(tmp_path):
    write(tmp_path, {"main.c": MAIN, "used.c": "int native_part(int);\n"
                     "int used(int x){return native_part(x);}\n",
                     "native.c": "int native_part(int x){return x + 22;}\n"})
    run(["ltoad-clang", "-O2", "-c", "main.c", "used.c"], tmp_path)
    run(["clang-22", "-O2", "-c", "native.c"], tmp_path)
    run(["ar", "rcs", "libmix.a", "used.o", "native.o"], tmp_path)
    run(["ltoad-clang", "main.o", "libmix.a", "-o", "prog"], tmp_path)
    assert run(["./prog"], tmp_path).stdout == "42\n"


def test_shared_library_exports_and_hides(tmp_path):
    write(tmp_path, {"lib.c": "__attribute__((visibility(\"hidden\"))) int helper(int x)"
                     "{return x + 2;}\nint used(int x){return helper(x) + 20;}\n", "main.c": MAIN})
    run(["ltoad-clang", "-O2", "-fPIC", "-shared", "lib.c", "-o", "libused.so"], tmp_path)
    symbols = run(["llvm-nm-22", "-D", "--defined-only", "libused.so"], tmp_path).stdout
    assert " T used" in symbols and "helper" not in symbols
    run(["ltoad-clang", "-O2", "main.c", "-L.", "-lused", "-o", "prog"], tmp_path)
    assert run(["./prog"], tmp_path, LD_LIBRARY_PATH=str(tmp_path)).stdout == "42\n"


def test_internalizes_what_native_code_does_not_reference(tmp_path):
    build(tmp_path, {"main.c": MAIN, "used.c": USED}, "main", "used")
    run(["ltoad-clang", "main.o", "used.o", "-o", "prog"], tmp_path)
    run(["ltoad-clang", "main.o", "used.o", "-Wl,-u,used", "-o", "prog_u"], tmp_path)
    assert " T used" not in run(["llvm-nm-22", "prog"], tmp_path).stdout
    assert " T used" in run(["llvm-nm-22", "prog_u"], tmp_path).stdout


def test_save_temps_keeps_ir_before_and_after_ad(tmp_path):
    build(tmp_path, {"main.c": MAIN, "used.c": USED}, "main", "used")
    run(["ltoad-clang", "main.o", "used.o", "-Wl,--ltoad-save-temps", "-o", "prog"], tmp_path)
    for stage in ("before-ad", "after-ad"):
        text = (tmp_path / f"prog.ltoad.{stage}.ll").read_text()
        assert "define" in text and "@main" in text


def test_verbose_logs_each_decision(tmp_path):
    build(tmp_path, {"main.c": MAIN, "used.c": USED}, "main", "used")
    result = run(["ltoad-clang", "main.o", "used.o", "-o", "prog"], tmp_path, LTOAD_VERBOSE="1")
    assert "ltoad: ltoad-clang: link:" in result.stderr
    assert "ltoad: ltoad-ld: exec" in result.stderr


def test_native_only_link_passes_through(tmp_path):
    write(tmp_path, {"main.c": MAIN, "used.c": USED})
    run(["clang-22", "-c", "main.c", "used.c"], tmp_path)
    result = run(["ltoad-clang", "main.o", "used.o", "-o", "prog"], tmp_path, LTOAD_VERBOSE="1")
    assert "pass-through to ld.lld (no bitcode inputs)" in result.stderr
    assert run(["./prog"], tmp_path).stdout == "42\n"


# --- bad input: one located error line, exit 1, no traceback, no output file ---------------

def _newer_bitcode(data: bytes) -> bytes:
    """Rewrite the IDENTIFICATION block as a future LLVM would write it (LLVM23.0.0, epoch 1)."""
    def char6(c: str) -> int:
        return "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._".index(c)
    bits = [(b >> i) & 1 for b in data[:64] for i in range(8)]
    encode = lambda s: [(char6(c) >> i) & 1 for c in s for i in range(6)]  # noqa: E731
    old = encode("LLVM22.1.8")
    at = next(i for i in range(len(bits)) if bits[i:i + len(old)] == old)
    bits[at:at + len(old)] = encode("LLVM23.0.0")
    epoch_at = at + len(old) + 33   # after the epoch abbreviation's definition and its id
    assert bits[epoch_at:epoch_at + 6] == [0] * 6
    bits[epoch_at] = 1
    head = bytes(sum(bits[j * 8 + i] << i for i in range(8)) for j in range(64))
    return head + data[64:]


def _bad_input(tmp: Path, case: str) -> tuple[list[str], str]:
    build(tmp, {"main.c": MAIN, "used.c": USED}, "main", "used")
    if case == "corrupt object":
        (tmp / "bad.o").write_bytes(b"\x00garbage that is not an object\n")
        return ["main.o", "bad.o"], r"ltoad: error: bad.o: not an object file"
    if case == "truncated bitcode":
        (tmp / "bad.o").write_bytes((tmp / "used.o").read_bytes()[:300])
        return ["main.o", "bad.o"], r"ltoad: error: bad.o: cannot read bitcode .*corrupt or truncated"
    if case == "newer llvm":
        (tmp / "bad.o").write_bytes(_newer_bitcode((tmp / "used.o").read_bytes()))
        return ["main.o", "bad.o"], r"ltoad: error: bad.o: bitcode was produced by LLVM23\.0\.0"
    if case == "missing library":
        return ["main.o", "used.o", "-lfoo"], r"ltoad: error: unable to find library -lfoo"
    if case == "missing file":
        return ["main.o", "gone.o"], r"ltoad: error: cannot open 'gone.o': No such file"
    raise AssertionError(case)


@pytest.mark.parametrize("case", ["corrupt object", "truncated bitcode", "newer llvm",
                                  "missing library"])
def test_bad_input(tmp_path, case):
    inputs, pattern = _bad_input(tmp_path, case)
    result = run(["ltoad-clang", *inputs, "-o", "prog"], tmp_path, check=False)
    assert result.returncode == 1
    ltoad_lines = [l for l in result.stderr.splitlines() if l.startswith("ltoad")]
    assert len(ltoad_lines) == 1, result.stderr
    assert __import__("re").match(pattern, ltoad_lines[0]), result.stderr
    assert "Traceback" not in result.stderr
    assert sorted(p.name for p in tmp_path.iterdir() if "prog" in p.name) == []


def test_unwritable_output_keeps_old_file(tmp_path):
    build(tmp_path, {"main.c": MAIN, "used.c": USED}, "main", "used")
    result = run(["ltoad-ld", "main.o", "used.o", "-o", "/nonexistent-dir/prog"], tmp_path,
                 check=False)
    assert result.returncode == 1
    assert result.stderr.startswith("ltoad: error: cannot write output '/nonexistent-dir/prog'")


def test_failed_link_leaves_previous_output_untouched(tmp_path):
    build(tmp_path, {"main.c": MAIN, "used.c": USED}, "main", "used")
    (tmp_path / "prog").write_text("previous")
    # ltoad-ld itself (clang's driver deletes its output after any failed link)
    result = run(["ltoad-ld", "main.o", "-e", "main", "-o", "prog"], tmp_path, check=False)
    assert result.returncode != 0 and "undefined symbol: used" in result.stderr
    assert (tmp_path / "prog").read_text() == "previous"
    assert [p.name for p in tmp_path.iterdir() if ".tmp" in p.name] == []
