"""The benchmark's generated project at a small size: deterministic, builds and links with ltoad."""

from __future__ import annotations

import sys

from conftest import ROOT, run

GENERATOR = ROOT / "scripts" / "gen_project.py"


def generate(outdir, files=3, kernels=4):
    run([sys.executable, str(GENERATOR), str(outdir), "--files", str(files), "--kernels", str(kernels)], outdir.parent)
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
