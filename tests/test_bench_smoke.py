"""The benchmark's generated project at a small size: deterministic, builds and links with ltoad;
with --request its gradient matches finite differences; the bench's scale section at a tiny size."""

from __future__ import annotations

import json
import re
import sys

from conftest import ROOT, run

GENERATOR = ROOT / "scripts" / "gen_project.py"


def generate(outdir, files=3, kernels=4, request=False):
    run([sys.executable, str(GENERATOR), str(outdir), "--files", str(files), "--kernels", str(kernels),
         *(["--request"] if request else [])], outdir.parent)
    return {p.name: p.read_bytes() for p in sorted(outdir.iterdir())}


def test_generator_is_deterministic(tmp_path):
    first = generate(tmp_path / "a")
    assert set(first) == {"Makefile", "kernels.h", "main.c", "unit000.c", "unit001.c", "unit002.c"}
    assert generate(tmp_path / "b") == first


def test_generated_project_builds_and_links_with_ltoad(tmp_path):
    project = tmp_path / "project"
    generate(project)
    build = run(["make", "CC=ltoad-clang", "AR=llvm-ar-22"], project, LTOAD_VERBOSE="1")
    assert "ltoad-ld:" in build.stderr
    assert (project / "libunits.a").read_bytes().count(b"BC\xc0\xde") == 3
    output = run(["./kernels"], project).stdout
    assert output.startswith("unit 0: ") and "total: " in output


def test_request_is_off_by_default_and_deterministic(tmp_path):
    plain = generate(tmp_path / "plain")
    assert not any(b"chain_" in text or b"enzyme" in text for text in plain.values())
    first = generate(tmp_path / "a", request=True)
    assert set(first) == set(plain)
    assert generate(tmp_path / "b", request=True) == first
    assert b"__enzyme_autodiff((void *)objective" in first["main.c"]


def test_request_project_gradient_matches_finite_differences(tmp_path):
    project = tmp_path / "project"
    generate(project, request=True)
    run(["make", "CC=ltoad-clang", "AR=llvm-ar-22"], project)
    output = run(["./kernels"], project).stdout
    error = re.search(r"^max relative error (\S+)$", output, re.MULTILINE)
    assert error and float(error.group(1)) < 1e-6, output


def test_python_share_from_the_link_log():
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        import bench
    finally:
        sys.path.remove(str(ROOT / "scripts"))
    lines = [(0.1, "ltoad: ltoad-ld: internalized 12 symbols"),
             (0.5, ("ltoad: ltoad-ld: 161 bitcode modules; merge=0.31s internalize=0.02s requests=0.40s "
                   "pre-ad-optimize=1.1s ad=0.9s hand-over=0.2s optimize=0.6s codegen=0.9s")),
             (0.6, "ltoad: ltoad-ld: total before ld.lld 5.0s")]
    phases = bench.ltoad_phases(lines)
    assert phases["total"] == 5.0 and phases["ad"] == 0.9
    # merge, internalize, pre-ad-optimize, hand-over, optimize and codegen run in libLLVM.
    assert abs(bench.python_seconds(phases) - (5.0 - 0.31 - 0.02 - 1.1 - 0.2 - 0.6 - 0.9)) < 1e-9


def test_bench_scale_section_at_a_tiny_size(tmp_path):
    numbers = tmp_path / "bench.json"
    result = run([sys.executable, str(ROOT / "scripts" / "bench.py"), "--scale-only", "--repeat", "1",
                  "--scale-files", "3", "--scale-kernels", "1", "--json", str(numbers)], tmp_path)
    assert "python share" in result.stdout
    steps = json.loads(numbers.read_text())["scale"]["steps"]
    assert [s["request"] for s in steps] == [False, True]
    assert steps[0]["check"] == "outputs match"
    assert steps[1]["check"].startswith("gradient vs FD") and steps[1]["check"].endswith("rest matches")
    for step in steps:
        assert step["merged_ir_lines"] > 0 and 0.0 < step["python_share"] < 1.0
    assert "ad" in steps[1]["ltoad_phases"] and "ad" not in steps[0]["ltoad_phases"]


def test_forward_bench_reports_width_against_scalar():
    import subprocess
    import sys
    from pathlib import Path
    script = Path(__file__).resolve().parent.parent / "scripts" / "bench_forward.py"
    result = subprocess.run([sys.executable, str(script)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    rows = {line.split()[3] for line in result.stdout.splitlines() if " x width " in line}
    assert rows == {"1", "4", "8"}
    assert "largest difference between the three gradients" in result.stdout
