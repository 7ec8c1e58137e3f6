"""Rule formulas (ltoad.ad.expr trees) emitted as IR instructions through a Builder.

Arithmetic becomes fadd/fsub/fmul/fdiv/fneg (or integer add/sub/mul when both operands are
integers, as in `powi`'s exponent), comparisons fcmp, functions LLVM intrinsics or libm calls.
Numbers take the type of the operation (splatted for vectors). Every function the emitted code
calls is recorded in `declarations` so the module can declare it.
"""

from __future__ import annotations

from ..ir.builder import Builder
from ..ir.types import I32, FloatType, FunctionType, IntType, Type, VectorType
from ..ir.values import ConstantFloat, ConstantInt, ConstantSplat, GlobalRef, Value, ZeroInitializer
from .expr import Expr

FLOAT_ARITHMETIC = {"add": "fadd", "sub": "fsub", "mul": "fmul", "div": "fdiv"}
INT_ARITHMETIC = {"add": "add", "sub": "sub", "mul": "mul"}
INTRINSICS = {"sqrt", "exp", "exp2", "log", "sin", "cos", "sinh", "cosh", "pow", "copysign",
              "fabs", "trunc", "rint"}
LIBM = {"tgamma"}


def type_suffix(type: Type) -> str:
    """LLVM's overload suffix: f64, f32, v2f64, i32."""
    if isinstance(type, VectorType):
        return f"v{type.count}{type_suffix(type.element)}"
    if isinstance(type, FloatType):
        return {"double": "f64", "float": "f32", "half": "f16", "bfloat": "bf16",
                "x86_fp80": "f80", "fp128": "f128"}[type.kind]
    return f"i{type.bits}"


def float_constant(type: Type, value: float) -> Value:
    if isinstance(type, VectorType):
        return ConstantSplat(type, ConstantFloat.from_value(type.element, value))
    return ConstantFloat.from_value(type, value)


def zero_of(type: Type) -> Value:
    """The zero of `type`: 0.0 (splatted for float vectors), integer 0, or zeroinitializer."""
    if isinstance(type, FloatType) or (isinstance(type, VectorType) and type.element.is_float()):
        return float_constant(type, 0.0)
    if isinstance(type, IntType):
        return ConstantInt(type, 0)
    return ZeroInitializer(type)


def _libm_name(name: str, type: Type) -> str:
    kind = type.scalar.kind
    return {"double": name, "float": f"{name}f", "x86_fp80": f"{name}l"}[kind]


class FormulaEmitter:
    def __init__(self, builder: Builder, type: Type):
        self.b = builder
        self.type = type
        self.declarations: dict[str, str] = {}

    def emit(self, expr: Expr, env: dict[str, Value], hint: Type | None = None) -> Value:
        hint = hint or self.type
        if expr.op == "num":
            if isinstance(hint, IntType):
                return ConstantInt(hint, int(expr.value))
            return float_constant(hint, float(expr.value))
        if expr.op == "var":
            return env[str(expr.value)]
        if expr.op == "neg":
            return self.b.fneg(self.emit(expr.args[0], env))
        if expr.op in FLOAT_ARITHMETIC:
            return self._arithmetic(expr, env)
        if expr.op in ("olt", "ole", "ogt", "oge", "oeq"):
            lhs, rhs = self._operands(expr.args, env)
            return self.b.fcmp(expr.op, lhs, rhs)
        return self._function(expr, env)

    def _operands(self, args: tuple[Expr, ...], env: dict[str, Value]) -> list[Value]:
        """Emit operands; numbers take the type of a sibling that is not a number."""
        typed = [self.emit(a, env) for a in args if a.op != "num"]
        hint = typed[0].type if typed else self.type
        it = iter(typed)
        return [self.emit(a, env, hint) if a.op == "num" else next(it) for a in args]

    def _arithmetic(self, expr: Expr, env: dict[str, Value]) -> Value:
        lhs, rhs = self._operands(expr.args, env)
        if isinstance(lhs.type, IntType):
            return self.b.binary(INT_ARITHMETIC[expr.op], lhs, rhs)
        return self.b.binary(FLOAT_ARITHMETIC[expr.op], lhs, rhs)

    def _function(self, expr: Expr, env: dict[str, Value]) -> Value:
        if expr.op == "select":
            condition = self.emit(expr.args[0], env)
            a, b = self._operands(expr.args[1:], env)
            return self.b.select(condition, a, b)
        if expr.op == "float":
            return self.b.cast("sitofp", self.emit(expr.args[0], env, I32), self.type)
        if expr.op in ("powi", "ldexp"):
            base = self.emit(expr.args[0], env)
            exponent = self.emit(expr.args[1], env, I32)
            name = f"llvm.{expr.op}.{type_suffix(self.type)}.{type_suffix(exponent.type)}"
            return self.call(name, [base, exponent])
        args = self._operands(expr.args, env)
        if expr.op in INTRINSICS:
            return self.call(f"llvm.{expr.op}.{type_suffix(self.type)}", args)
        if expr.op == "digamma":
            return self.call(f"__ltoad_digamma.{type_suffix(self.type)}", args)
        return self.call(_libm_name(expr.op, self.type), args)

    def call(self, name: str, args: list[Value]) -> Value:
        function_type = FunctionType(self.type, tuple(a.type for a in args), False)
        params = ", ".join(str(a.type) for a in args)
        self.declarations[name] = f'declare {self.type} @"{name}"({params})'
        return self.b.call(GlobalRef(name), args, function_type)
