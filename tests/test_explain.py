"""`ltoad explain` shows activity and memory types of a function."""

from conftest import run, write

SOURCE = """
struct pair { double *values; int count; };
double sum(const struct pair *p, double scale) {
    double s = 0;
    for (int i = 0; i < p->count; i++) s += p->values[i];
    return s * scale;
}
"""


def test_explain_marks_active_values_and_memory_types(tmp_path):
    write(tmp_path, {"s.c": SOURCE})
    run(["clang-22", "-O2", "-fno-vectorize", "-c", "-emit-llvm", "s.c", "-o", "s.bc"], tmp_path)
    out = run(["ltoad", "explain", "s.bc", "--function", "sum"], tmp_path).stdout
    assert out.splitlines()[0] == "function 'sum' with arguments ptr dup, double out"
    assert any("[shadow, reads ptr]" in line and "load ptr" in line for line in out.splitlines())
    assert any("[const, reads i32]" in line for line in out.splitlines())
    assert any("[active]" in line and "fmul double" in line for line in out.splitlines())
    const = run(["ltoad", "explain", "s.bc", "--function", "sum", "--args", "const,const"],
                tmp_path).stdout
    assert "[active" not in const


def test_explain_errors(tmp_path):
    write(tmp_path, {"s.c": SOURCE})
    run(["clang-22", "-O2", "-c", "-emit-llvm", "s.c", "-o", "s.bc"], tmp_path)
    bad = run(["ltoad", "explain", "s.bc", "--function", "nope"], tmp_path, check=False)
    assert bad.returncode == 1 and bad.stderr.startswith("ltoad: error: no function 'nope'")
    bad = run(["ltoad", "explain", "s.bc", "--function", "sum", "--args", "dup"], tmp_path, check=False)
    assert bad.returncode == 1 and "--args needs 2 activities" in bad.stderr
