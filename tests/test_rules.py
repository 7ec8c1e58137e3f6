"""The rule table: complete, consistent, and mathematically right (checked numerically)."""

import math
import re

import pytest

from ltoad.ad import expr, rules

REQUIRED = """sqrt cbrt exp exp2 expm1 log log2 log10 log1p pow powi sin cos tan asin acos atan atan2
sinh cosh tanh asinh acosh atanh erf erfc hypot fabs copysign fmin fmax llvm.minnum llvm.maxnum
minimum maximum fma llvm.fmuladd floor ceil trunc round rint lgamma tgamma frexp ldexp modf
sincos""".split()
INTRINSIC_ONLY = {"powi"}

PYTHON = {
    "fadd": lambda a, b: a + b, "fsub": lambda a, b: a - b, "fmul": lambda a, b: a * b,
    "fdiv": lambda a, b: a / b, "frem": math.fmod, "fneg": lambda a: -a,
    "cbrt": lambda a: math.copysign(abs(a) ** (1 / 3), a), "exp10": lambda a: 10.0 ** a,
    "powi": lambda a, n: a ** int(n), "fmin": min, "fmax": max, "minimum": min,
    "maximum": max, "fma": lambda a, b, c: a * b + c, "ldexp": lambda a, n: math.ldexp(a, int(n)),
    "roundeven": round, "rint": round, "nearbyint": round, "tgamma": math.gamma,
    "exp2": lambda a: 2.0 ** a, "round": round, "remainder": math.remainder,
}
POINTS = {"acosh": [1.7, 3.1], "log": [0.4, 2.5], "log2": [0.4, 2.5], "log10": [0.4, 2.5],
          "sqrt": [0.3, 4.2], "lgamma": [0.7, 3.3], "tgamma": [0.7, 3.3], "pow": [(1.3, 2.2), (0.6, -1.4)],
          "powi": [(1.3, 3.0), (-0.8, 2.0)], "ldexp": [(1.3, 3.0)], "atan2": [(0.4, -1.2), (-2.0, 0.7)],
          "copysign": [(0.8, -1.0), (-0.8, 2.0)]}
DEFAULT_POINTS = {1: [0.37, -0.61], 2: [(0.9, 1.7), (-1.1, 0.4)], 3: [(0.5, 1.5, -0.7)]}


def elementwise():
    return [r for r in rules.RULES if r.special is None]


def test_every_required_function_has_a_rule():
    missing = [name for name in REQUIRED
               if rules.lookup(name) is None and rules.lookup(f"llvm.{name}.f64") is None]
    assert missing == []


@pytest.mark.parametrize("name", [n for n in REQUIRED if not n.startswith("llvm.")])
def test_libm_spellings_float_double_long_double(name):
    if name in INTRINSIC_ONLY:
        assert rules.lookup(f"llvm.{name}.f64.i32") is not None
        return
    rule = rules.lookup(name)
    assert rules.lookup(f"{name}f") is rule and rules.lookup(f"{name}l") is rule


@pytest.mark.parametrize("callee, base", [
    ("llvm.powi.f64.i32", "llvm.powi"), ("llvm.sin.v2f64", "llvm.sin"),
    ("llvm.vector.reduce.fadd.v4f64", "llvm.vector.reduce.fadd"),
    ("llvm.fmuladd.f32", "llvm.fmuladd"), ("llvm.frexp.f64.i32", "llvm.frexp"), ("sin", "sin")])
def test_intrinsic_base_names(callee, base):
    assert rules.base_name(callee) == base


def test_spellings_are_unique():
    spellings = [s for r in rules.RULES for s in r.spellings]
    assert len(spellings) == len(set(spellings))


@pytest.mark.parametrize("rule", rules.RULES, ids=lambda r: r.name)
def test_shape(rule):
    assert rule.math and rule.spellings
    if rule.special:
        assert rule.partials == ()
        return
    assert len(rule.partials) == rule.arity
    allowed = {"y"} | {f"x{i}" for i in range(rule.arity)}
    for partial in rule.partials:
        if partial is not None:
            assert partial.variables() <= allowed


def _reference(rule):
    return PYTHON.get(rule.name) or getattr(math, rule.name)


@pytest.mark.parametrize("rule", elementwise(), ids=lambda r: r.name)
def test_partials_match_central_differences(rule):
    f = _reference(rule)
    for point in POINTS.get(rule.name, DEFAULT_POINTS[rule.arity]):
        xs = list(point) if isinstance(point, tuple) else [point]
        env = {f"x{i}": x for i, x in enumerate(xs)} | {"y": f(*xs)}
        for i, partial in enumerate(rule.partials):
            if partial is None:
                continue
            h = 1e-6 * max(1.0, abs(xs[i]))
            up, down = list(xs), list(xs)
            up[i] += h
            down[i] -= h
            numeric = (f(*up) - f(*down)) / (2 * h)
            assert expr.evaluate(partial, env) == pytest.approx(numeric, rel=1e-5, abs=1e-7), \
                f"{rule.name}: d/dx{i} at {xs}"


def test_piecewise_constant_rules_are_zero():
    for name in ("floor", "ceil", "trunc", "round", "rint"):
        assert rules.lookup(name).partials == (None,)


@pytest.mark.parametrize("text, message", [("foo(x0)", "cannot use 'foo(x0)'"),
                                           ("x0 +", "formula 'x0 +'"), ("z", "cannot use 'z'")])
def test_bad_formulas_are_rejected(text, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        expr.parse(text)
