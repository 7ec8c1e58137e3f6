"""The ADBench drivers (bench/adbench) on tiny generated inputs: built with ltoad as the gradient
benchmark builds them, their gradients agree with central finite differences. No timing.

Each benchmark is built after optimization with its read-only data passed as enzyme_const (the
benchmarked configuration), and before optimization with the data passed as enzyme_dup (the
configuration the benchmark compares against it).
"""

from __future__ import annotations

import random
import sys

import pytest

from conftest import ROOT

sys.path.insert(0, str(ROOT / "scripts"))
import bench_adbench  # noqa: E402  (a script beside bench.py, not a package)

CONFIGS = [bench_adbench.AFTER, bench_adbench.BEFORE_DUP]


def numbers(rng: random.Random, count: int, low: float = -1.0, high: float = 1.0) -> str:
    return " ".join(f"{rng.uniform(low, high):.6f}" for _ in range(count))


def gmm_text(rng: random.Random, d: int = 3, k: int = 4, n: int = 20) -> str:
    icf_size = d * (d + 1) // 2
    return "\n".join([f"{d} {k} {n}", numbers(rng, k), numbers(rng, d * k), numbers(rng, icf_size * k, -0.5, 0.5),
                      numbers(rng, d * n), "1.0 0"]) + "\n"


def ba_text(rng: random.Random) -> str:
    camera = "0.3 -0.2 0.1 1.5 -2.0 -10.0 400.0 5.0 -8.0 0.08 0.003"
    return "\n".join(["2 3 5", camera, numbers(rng, 3), "0.4", "270.0 830.0"]) + "\n"


def lstm_text(rng: random.Random, l: int = 2, c: int = 6, b: int = 4) -> str:
    return "\n".join([f"{l} {c} {b}", numbers(rng, 2 * l * 4 * b), numbers(rng, 3 * b), numbers(rng, 2 * l * b),
                      numbers(rng, c * b, 0.0, 1.0)]) + "\n"


INPUTS = {"gmm": gmm_text, "ba": ba_text, "lstm": lstm_text}


@pytest.fixture(scope="module")
def work(tmp_path_factory):
    return tmp_path_factory.mktemp("adbench")


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: c.name.replace(", ", "-").replace(" ", "-"))
@pytest.mark.parametrize("benchmark", sorted(INPUTS))
def test_gradient_matches_finite_differences(benchmark, config, work):
    data = work / f"{benchmark}.txt"
    data.write_text(INPUTS[benchmark](random.Random(benchmark)))
    build = bench_adbench.build(benchmark, config, work)
    assert build.usable, build.failure
    values = bench_adbench.run_driver(build.binary, data, 1, check=True)
    assert float(values["check_max_rel_error"]) <= bench_adbench.CHECK_TOLERANCE, values
    assert int(values["tape_bytes"]) > 0
