"""The derivative rule table: one entry per floating-point operation, all spellings together.

Each entry gives the partial derivative of the result `y` with respect to each operand `x0, x1,
...` as a formula (ltoad.ad.expr). Reverse mode uses them as `dx_i += dy * partial_i`, forward
mode as `dy = sum_i dx_i * partial_i`: one source of truth for both. `ZERO` marks an operand
with no derivative (an integer, or a piecewise-constant dependence). Operations whose result is
not a plain function of their operands (frexp, modf, sincos, reductions) name a `special`
handler that the differentiator implements. Spellings cover libm (`sin`, `sinf`, `sinl`) and
LLVM intrinsics (`llvm.sin.*`, matched without their type suffixes).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .expr import Expr, parse

ZERO = None


@dataclass(frozen=True)
class Rule:
    name: str
    spellings: tuple[str, ...]
    arity: int
    partials: tuple[Expr | None, ...]
    math: str                      # the derivative in conventional notation
    special: str | None = None     # handler name when the rule is not elementwise


def _rule(name: str, partials: list[str | None], math: str, *, libm: bool = True,
          intrinsic: bool = True, extra: tuple[str, ...] = ()) -> Rule:
    spellings = (name, f"{name}f", f"{name}l") if libm else ()
    spellings += (f"llvm.{name}",) if intrinsic else ()
    parsed = tuple(parse(p) if p is not None else ZERO for p in partials)
    return Rule(name, spellings + extra, len(partials), parsed, math)


def _special(name: str, arity: int, math: str, spellings: tuple[str, ...]) -> Rule:
    return Rule(name, spellings, arity, (), math, special=name)


def _instruction(opcode: str, partials: list[str | None], math: str) -> Rule:
    return _rule(opcode, partials, math, libm=False, intrinsic=False, extra=(opcode,))


def _piecewise_constant(name: str, arity: int = 1, **kw) -> Rule:
    return _rule(name, [ZERO] * arity, f"d {name}(x) = 0 almost everywhere", **kw)


RULES: list[Rule] = [
    # --- instructions ----------------------------------------------------------------------
    _instruction("fadd", ["1", "1"], "d(a + b) = da + db"),
    _instruction("fsub", ["1", "-1"], "d(a - b) = da - db"),
    _instruction("fmul", ["x1", "x0"], "d(a b) = b da + a db"),
    # -(a / b^2) = -y (1 / b): both partials share one division (1 / b)
    _instruction("fdiv", ["1 / x1", "-y * (1 / x1)"], "d(a / b) = da / b - (a / b^2) db"),
    _instruction("frem", ["1", "-trunc(x0 / x1)"],
                 "frem(a, b) = a - b trunc(a / b): d = da - trunc(a / b) db"),
    _instruction("fneg", ["-1"], "d(-a) = -da"),
    # --- powers, roots, exponentials, logarithms --------------------------------------------
    _rule("sqrt", ["0.5 / y"], "d sqrt x = dx / (2 sqrt x)"),
    _rule("cbrt", ["y / (3 * x0)"], "d cbrt x = cbrt(x) / (3 x) dx", intrinsic=False),
    _rule("exp", ["y"], "d e^x = e^x dx"),
    _rule("exp2", ["y * ln2"], "d 2^x = 2^x ln 2 dx"),
    _rule("exp10", ["y * ln10"], "d 10^x = 10^x ln 10 dx"),
    _rule("expm1", ["y + 1"], "d (e^x - 1) = e^x dx"),
    _rule("log", ["1 / x0"], "d ln x = dx / x"),
    _rule("log2", ["1 / (x0 * ln2)"], "d log2 x = dx / (x ln 2)"),
    _rule("log10", ["1 / (x0 * ln10)"], "d log10 x = dx / (x ln 10)"),
    _rule("log1p", ["1 / (1 + x0)"], "d ln(1 + x) = dx / (1 + x)", intrinsic=False),
    _rule("pow", ["x1 * pow(x0, x1 - 1)", "select(x0 > 0, y * log(x0), 0)"],
          "d a^b = b a^(b-1) da + a^b ln(a) db (the db term taken as 0 where a <= 0)"),
    _rule("powi", ["float(x1) * powi(x0, x1 - 1)", ZERO],
          "d a^n = n a^(n-1) da, n an integer", libm=False),
    _rule("fmod", ["1", "-trunc(x0 / x1)"], "fmod(a, b) = a - b trunc(a / b): d = da - trunc(a / b) db",
          intrinsic=False),
    _rule("remainder", ["1", "-rint(x0 / x1)"],
          "remainder(a, b) = a - b rint(a / b): d = da - rint(a / b) db", intrinsic=False),
    _rule("hypot", ["x0 / y", "x1 / y"], "d sqrt(a^2 + b^2) = (a da + b db) / hypot(a, b)",
          intrinsic=False),
    # --- trigonometric and hyperbolic ---------------------------------------------------------
    _rule("sin", ["cos(x0)"], "d sin x = cos x dx"),
    _rule("cos", ["-sin(x0)"], "d cos x = -sin x dx"),
    _rule("tan", ["1 + y * y"], "d tan x = (1 + tan^2 x) dx"),
    _rule("asin", ["1 / sqrt(1 - x0 * x0)"], "d asin x = dx / sqrt(1 - x^2)"),
    _rule("acos", ["-1 / sqrt(1 - x0 * x0)"], "d acos x = -dx / sqrt(1 - x^2)"),
    _rule("atan", ["1 / (1 + x0 * x0)"], "d atan x = dx / (1 + x^2)"),
    _rule("atan2", ["x1 / (x0 * x0 + x1 * x1)", "-x0 / (x0 * x0 + x1 * x1)"],
          "d atan2(a, b) = (b da - a db) / (a^2 + b^2)"),
    _rule("sinh", ["cosh(x0)"], "d sinh x = cosh x dx"),
    _rule("cosh", ["sinh(x0)"], "d cosh x = sinh x dx"),
    _rule("tanh", ["1 - y * y"], "d tanh x = (1 - tanh^2 x) dx"),
    _rule("asinh", ["1 / sqrt(x0 * x0 + 1)"], "d asinh x = dx / sqrt(x^2 + 1)", intrinsic=False),
    _rule("acosh", ["1 / sqrt(x0 * x0 - 1)"], "d acosh x = dx / sqrt(x^2 - 1)", intrinsic=False),
    _rule("atanh", ["1 / (1 - x0 * x0)"], "d atanh x = dx / (1 - x^2)", intrinsic=False),
    # --- special functions ---------------------------------------------------------------------
    _rule("erf", ["2 / sqrt(pi) * exp(-x0 * x0)"], "d erf x = 2/sqrt(pi) e^(-x^2) dx",
          intrinsic=False),
    _rule("erfc", ["-2 / sqrt(pi) * exp(-x0 * x0)"], "d erfc x = -2/sqrt(pi) e^(-x^2) dx",
          intrinsic=False),
    _rule("lgamma", ["digamma(x0)"], "d ln|Gamma(x)| = psi(x) dx", intrinsic=False),
    _rule("tgamma", ["y * digamma(x0)"], "d Gamma(x) = Gamma(x) psi(x) dx", intrinsic=False),
    # --- sign, magnitude, selection -----------------------------------------------------------
    _rule("fabs", ["copysign(1, x0)"], "d |x| = sign(x) dx (taken as +dx at x = +0)"),
    _rule("copysign", ["copysign(1, x0) * copysign(1, x1)", ZERO],
          "d copysign(a, s) = sign(a) sign(s) da"),
    _rule("fmin", ["select(x0 <= x1, 1, 0)", "select(x0 <= x1, 0, 1)"],
          "d min(a, b) = da where a <= b, else db", extra=("llvm.minnum", "llvm.minimumnum")),
    _rule("fmax", ["select(x0 >= x1, 1, 0)", "select(x0 >= x1, 0, 1)"],
          "d max(a, b) = da where a >= b, else db", extra=("llvm.maxnum", "llvm.maximumnum")),
    _rule("minimum", ["select(x0 <= x1, 1, 0)", "select(x0 <= x1, 0, 1)"],
          "d minimum(a, b) = da where a <= b, else db", libm=False,
          extra=("fminimum", "fminimumf", "fminimuml")),
    _rule("maximum", ["select(x0 >= x1, 1, 0)", "select(x0 >= x1, 0, 1)"],
          "d maximum(a, b) = da where a >= b, else db", libm=False,
          extra=("fmaximum", "fmaximumf", "fmaximuml")),
    _rule("fma", ["x1", "x0", "1"], "d(a b + c) = b da + a db + dc", extra=("llvm.fmuladd",)),
    _rule("ldexp", ["ldexp(1, x1)", ZERO], "d (a 2^n) = 2^n da", extra=("scalbn", "scalbnf")),
    # --- piecewise constant: zero derivative ---------------------------------------------------
    _piecewise_constant("floor"),
    _piecewise_constant("ceil"),
    _piecewise_constant("trunc"),
    _piecewise_constant("round"),
    _piecewise_constant("rint"),
    _piecewise_constant("nearbyint"),
    _piecewise_constant("roundeven"),
    # --- not elementwise: implemented by named handlers ---------------------------------------
    _special("frexp", 1, "x = m 2^e: dm = 2^-e dx, de = 0",
             ("frexp", "frexpf", "frexpl", "llvm.frexp")),
    _special("modf", 1, "x = i + f: df = dx, di = 0 (the integral part is stored)",
             ("modf", "modff", "modfl", "llvm.modf")),
    _special("sincos", 1, "(s, c) = (sin x, cos x): ds = cos x dx, dc = -sin x dx",
             ("sincos", "sincosf", "sincosl", "llvm.sincos")),
    _special("reduce_fadd", 2, "d(s + sum v) = ds + sum dv", ("llvm.vector.reduce.fadd",)),
    _special("reduce_fmul", 2, "d(s prod v) = prod v ds + sum_i (s prod_{j!=i} v_j) dv_i",
             ("llvm.vector.reduce.fmul",)),
    _special("reduce_fmax", 1, "d max v = dv_k at the selected lane k",
             ("llvm.vector.reduce.fmax", "llvm.vector.reduce.fmaximum")),
    _special("reduce_fmin", 1, "d min v = dv_k at the selected lane k",
             ("llvm.vector.reduce.fmin", "llvm.vector.reduce.fminimum")),
]

# Functions and intrinsics that never carry derivatives (no float result depends on them in a
# differentiable way): the differentiator treats calls to them as constant.
NON_DIFFERENTIABLE = (
    "llvm.lifetime.start", "llvm.lifetime.end", "llvm.assume", "llvm.dbg.value",
    "llvm.dbg.declare", "llvm.experimental.noalias.scope.decl", "llvm.invariant.start",
    "llvm.invariant.end", "llvm.prefetch", "llvm.is.fpclass", "llvm.lround", "llvm.llround",
    "llvm.lrint", "llvm.llrint", "llvm.fptosi.sat", "llvm.fptoui.sat", "llvm.smax", "llvm.smin",
    "llvm.umax", "llvm.umin", "llvm.abs", "llvm.ctpop", "llvm.ctlz", "llvm.cttz",
    "llvm.expect", "llvm.trap", "llvm.ubsantrap", "llvm.stacksave", "llvm.stackrestore",
    "isnan", "isinf", "isfinite", "lround", "llround", "lrint", "llrint", "ilogb",
)

_TYPE_SUFFIX = re.compile(r"^(?:v\d+|nxv\d+)?(?:f16|bf16|f32|f64|f80|f128|ppcf128|i\d+|p\d+)$")
_BY_SPELLING = {spelling: rule for rule in RULES for spelling in rule.spellings}


def base_name(callee: str) -> str:
    """An intrinsic's name without its overload suffixes: llvm.powi.f64.i32 -> llvm.powi."""
    if not callee.startswith("llvm."):
        return callee
    parts = callee.split(".")
    while len(parts) > 2 and _TYPE_SUFFIX.match(parts[-1]):
        parts.pop()
    return ".".join(parts)


def lookup(callee_or_opcode: str) -> Rule | None:
    return _BY_SPELLING.get(base_name(callee_or_opcode))


def is_non_differentiable(callee: str) -> bool:
    return base_name(callee) in NON_DIFFERENTIABLE
