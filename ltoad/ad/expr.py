"""Derivative formulas as small expression trees, written as math in the rule table.

A formula such as `"x1 * pow(x0, x1 - 1)"` names the operation's operands `x0, x1, ...`, its
result `y`, constants (`pi`, `ln2`, `ln10`, numbers) and a fixed set of functions. Python's own
parser reads the text; the tree is then either emitted as IR by the differentiator or evaluated
numerically (tests check every formula against finite differences this way).
"""

from __future__ import annotations

import ast
import math
from dataclasses import dataclass

CONSTANTS = {"pi": math.pi, "ln2": math.log(2.0), "ln10": math.log(10.0)}

# Functions a formula may call, with their arity. Each has an LLVM spelling in the emitter.
FUNCTIONS = {
    "sqrt": 1, "exp": 1, "exp2": 1, "log": 1, "sin": 1, "cos": 1, "sinh": 1, "cosh": 1,
    "pow": 2, "powi": 2, "copysign": 2, "fabs": 1, "ldexp": 2, "tgamma": 1, "digamma": 1,
    "select": 3, "float": 1, "trunc": 1, "rint": 1,
}
BINARY = {ast.Add: "add", ast.Sub: "sub", ast.Mult: "mul", ast.Div: "div"}
COMPARE = {ast.Lt: "olt", ast.LtE: "ole", ast.Gt: "ogt", ast.GtE: "oge", ast.Eq: "oeq"}


@dataclass(frozen=True)
class Expr:
    """op is 'num', 'var', 'neg', a BINARY/COMPARE name, or a FUNCTIONS name."""
    op: str
    args: tuple["Expr", ...] = ()
    value: float | str | None = None

    def variables(self) -> set[str]:
        if self.op == "var":
            return {str(self.value)}
        return set().union(*(a.variables() for a in self.args)) if self.args else set()


def parse(text: str) -> Expr:
    """Read one formula; raises ValueError naming the unknown piece."""
    try:
        tree = ast.parse(text, mode="eval").body
    except SyntaxError as e:
        raise ValueError(f"formula '{text}': {e.msg}") from None
    return _convert(tree, text)


def _convert(node: ast.AST, text: str) -> Expr:
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)):
        return Expr("num", value=float(node.value))
    if isinstance(node, ast.Name):
        if node.id in CONSTANTS:
            return Expr("num", value=CONSTANTS[node.id])
        if node.id == "y" or (node.id[0] == "x" and node.id[1:].isdigit()):
            return Expr("var", value=node.id)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return Expr("neg", (_convert(node.operand, text),))
    if isinstance(node, ast.BinOp) and type(node.op) in BINARY:
        return Expr(BINARY[type(node.op)], (_convert(node.left, text), _convert(node.right, text)))
    if isinstance(node, ast.Compare) and len(node.ops) == 1 and type(node.ops[0]) in COMPARE:
        return Expr(COMPARE[type(node.ops[0])],
                    (_convert(node.left, text), _convert(node.comparators[0], text)))
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
            and FUNCTIONS.get(node.func.id) == len(node.args):
        return Expr(node.func.id, tuple(_convert(a, text) for a in node.args))
    raise ValueError(f"formula '{text}': cannot use '{ast.unparse(node)}'")


def _digamma(x: float) -> float:
    """psi(x): recurrence up to x >= 6, then the asymptotic series (error < 1e-12)."""
    result = 0.0
    while x < 6.0:
        result -= 1.0 / x
        x += 1.0
    inv2 = 1.0 / (x * x)
    series = inv2 * (1 / 12 - inv2 * (1 / 120 - inv2 * (1 / 252 - inv2 * (1 / 240 - inv2 / 132))))
    return result + math.log(x) - 0.5 / x - series


PY_FUNCTIONS = {
    "sqrt": math.sqrt, "exp": math.exp, "exp2": lambda a: 2.0 ** a, "log": math.log,
    "sin": math.sin, "cos": math.cos, "sinh": math.sinh, "cosh": math.cosh, "pow": math.pow,
    "powi": lambda a, n: a ** int(n), "copysign": math.copysign, "fabs": abs,
    "ldexp": lambda a, n: math.ldexp(a, int(n)), "tgamma": math.gamma, "digamma": _digamma,
    "select": lambda c, a, b: a if c else b, "float": float, "trunc": math.trunc, "rint": round,
    "add": lambda a, b: a + b, "sub": lambda a, b: a - b, "mul": lambda a, b: a * b,
    "div": lambda a, b: a / b, "neg": lambda a: -a,
    "olt": lambda a, b: a < b, "ole": lambda a, b: a <= b, "ogt": lambda a, b: a > b,
    "oge": lambda a, b: a >= b, "oeq": lambda a, b: a == b,
}


def evaluate(expr: Expr, env: dict[str, float]) -> float:
    """The formula's value in Python floats (for tests and constant folding)."""
    if expr.op == "num":
        return float(expr.value)
    if expr.op == "var":
        return env[str(expr.value)]
    return PY_FUNCTIONS[expr.op](*(evaluate(a, env) for a in expr.args))
