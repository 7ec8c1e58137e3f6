"""Every function clang and rustc emit parses and prints back as the text it came from.

The corpus is every C/C++ file under integration_tests/ (at -O0..-O3) and the sources in
tests/ir_corpus/ (C and C++ at -O0..-O3, Rust at opt-level 0 and 3), each also compiled with the
extra flags named on its `ir-corpus-variant:` lines. Each source is compiled to bitcode, loaded
with llvmlite and printed: exactly the text ltoad reads at link time. Hand-written `.ll` files
go through llvmlite's parser and printer, which gives the same canonical text.
"""

import re
import subprocess
from pathlib import Path

import llvmlite.binding as llvm
import pytest

from ltoad.ir import parse_module, print_function

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "tests" / "ir_corpus"
INTEGRATION = ROOT / "integration_tests"
_VARIANT = re.compile(r"^// ir-corpus-variant:(.*)$", re.M)
_STRING_OR_COMMENT = re.compile(r'"[^"]*"|;[^\n]*')

llvm.initialize_native_target()
llvm.initialize_native_asmprinter()
llvm.initialize_native_asmparser()


def _variants(source: Path) -> list[list[str]]:
    return [[]] + [line.split() for line in _VARIANT.findall(source.read_text())]


def _cases() -> list:
    cases = []
    for source in sorted(INTEGRATION.rglob("*.c")) + sorted(INTEGRATION.rglob("*.cpp")):
        for level in range(4):
            cases.append(pytest.param(source, [f"-O{level}"], id=f"{source.relative_to(ROOT)}-O{level}"))
    for source in sorted(INTEGRATION.rglob("src/lib.rs")):
        for level in (0, 3):
            label = f"{source.relative_to(ROOT)}-O{level}"
            cases.append(pytest.param(source, [f"-O{level}", "--edition=2021"], id=label))
    for source in sorted(CORPUS.glob("*.ll")):
        cases.append(pytest.param(source, [], id=source.name))
    for source in sorted(CORPUS.glob("*.c*")) + sorted(CORPUS.glob("*.rs")):
        levels = range(0, 4, 3) if source.suffix == ".rs" else range(4)
        for flags in _variants(source):
            for level in levels:
                label = "-".join([source.name, f"O{level}", *flags]).replace(" ", "")
                cases.append(pytest.param(source, [f"-O{level}", *flags], id=label))
    return cases


def _compile(source: Path, flags: list[str], out: Path) -> None:
    if source.suffix == ".rs":
        level = flags[0][2:]
        command = ["rustc", "--crate-type=lib", "--emit=llvm-bc", "-C", f"opt-level={level}", *flags[1:]]
    else:
        includes = [source.parent, source.parent / "include", source.parent.parent / "include"]
        command = ["clang-22", "-c", "-flto=full", *flags, *(f"-I{d}" for d in includes if d.is_dir())]
    result = subprocess.run([*command, str(source), "-o", str(out)], capture_output=True, text=True)
    if result.returncode != 0:
        pytest.fail(f"{' '.join(command)} failed:\n{result.stderr}")


def _module_text(source: Path, flags: list[str], tmp_path: Path) -> str:
    context = llvm.create_context()
    if source.suffix == ".ll":
        return str(llvm.parse_assembly(source.read_text(), context=context))
    bitcode = tmp_path / "module.bc"
    _compile(source, flags, bitcode)
    return str(llvm.parse_bitcode(bitcode.read_bytes(), context=context))


def normalize(text: str) -> str:
    """The text without comments, every run of whitespace made one space."""
    text = _STRING_OR_COMMENT.sub(lambda m: m.group() if m.group()[0] == '"' else " ", text)
    return " ".join(text.split())


def _first_difference(expected: str, actual: str) -> str:
    a, b = expected.split(" "), actual.split(" ")
    index = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    window = slice(max(0, index - 10), index + 10)
    return f"expected: {' '.join(a[window])}\nprinted:  {' '.join(b[window])}"


@pytest.mark.parametrize(("source", "flags"), _cases())
def test_functions_round_trip(source: Path, flags: list[str], tmp_path: Path):
    text = _module_text(source, flags, tmp_path)
    module = parse_module(text)
    assert str(module) == text
    failures = []
    for name in module.functions:
        expected = normalize(module.function_text(name))
        printed = normalize(print_function(module.parse_function(name)))
        if printed != expected:
            failures.append(f"@{name}:\n{_first_difference(expected, printed)}")
    assert not failures, "\n".join(failures)
    reparsed = llvm.parse_assembly(str(module), context=llvm.create_context())
    reparsed.verify()
