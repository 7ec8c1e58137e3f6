"""Adjoint rules for operations that are not elementwise: their results live in aggregates or
memory, or mix vector lanes. One handler per entry of the rule table with `special` set.

Each handler gets the reverse sweep, a builder positioned in the reverse block, the call and
the adjoint of its result (None for calls without a result) and adds into operand adjoints.
"""

from __future__ import annotations

from ..ir.builder import Builder
from ..ir.instructions import CallInst
from ..ir.types import I32, VectorType
from ..ir.values import ConstantInt, Poison, Value
from .expr import parse
from .formulas import FormulaEmitter, float_constant

SIN, COS = parse("sin(x0)"), parse("cos(x0)")


def lane_of(b: Builder, vector: Value, index: int) -> Value:
    return b.extractelement(vector, ConstantInt(I32, index))


def _splat(b: Builder, scalar: Value, vector: VectorType) -> Value:
    lanes = b.insertelement(Poison(vector), scalar, ConstantInt(I32, 0))
    return b.shufflevector(lanes, Poison(vector), [0] * vector.count)


def _take_memory(sweep, b: Builder, pointer: Value, call: CallInst, type) -> Value:
    """Read the adjoint a result stored through `pointer` received, and reset it."""
    slot = sweep.shadow(pointer, call)
    amount = b.load(type, slot)
    b.store(float_constant(type, 0.0), slot)
    return amount


def sincos(sweep, b: Builder, call: CallInst, dy: Value | None) -> None:
    """(s, c) = (sin x, cos x): dx += ds cos x - dc sin x (through memory, or a {s, c} pair)."""
    x = call.args[0]
    if len(call.args) == 3:
        ds = _take_memory(sweep, b, call.args[1], call, x.type)
        dc = _take_memory(sweep, b, call.args[2], call, x.type)
    else:
        ds, dc = b.extractvalue(dy, [0]), b.extractvalue(dy, [1])
    emitter = FormulaEmitter(b, x.type)
    primal = {"x0": sweep.primal(x)}
    sweep.add(b, x, b.fsub(b.fmul(ds, emitter.emit(COS, primal)), b.fmul(dc, emitter.emit(SIN, primal))))
    sweep.declarations.update(emitter.declarations)


def frexp(sweep, b: Builder, call: CallInst, dy: Value) -> None:
    """x = m 2^e: dx += dm 2^-e = dm m / x (taken as dm at x = 0); the exponent is an integer."""
    x = call.args[0]
    mantissa = sweep.primal(call)
    if len(call.args) == 1:                  # llvm.frexp returns { m, e }
        dy, mantissa = b.extractvalue(dy, [0]), b.extractvalue(mantissa, [0])
    primal = sweep.primal(x)
    ratio = b.fdiv(mantissa, primal)
    zero = b.fcmp("oeq", primal, float_constant(x.type, 0.0))
    sweep.add(b, x, b.fmul(dy, b.select(zero, float_constant(x.type, 1.0), ratio)))


def modf(sweep, b: Builder, call: CallInst, dy: Value) -> None:
    """x = i + f: dx += df; the integral part (stored, or the pair's second member) has none."""
    x = call.args[0]
    if len(call.args) == 2:
        _take_memory(sweep, b, call.args[1], call, x.type)
        sweep.add(b, x, dy)
    else:
        sweep.add(b, x, b.extractvalue(dy, [0]))


def reduce_fadd(sweep, b: Builder, call: CallInst, dy: Value) -> None:
    """y = s + sum v: ds += dy, dv += splat(dy)."""
    start, vector = call.args
    sweep.add(b, start, dy)
    sweep.add(b, vector, _splat(b, dy, vector.type))


def reduce_fmul(sweep, b: Builder, call: CallInst, dy: Value) -> None:
    """y = s prod v: ds += dy prod v, dv_i += dy s prod_{j != i} v_j."""
    start, vector = call.args
    s, v = sweep.primal(start), sweep.primal(vector)
    lanes = [lane_of(b, v, i) for i in range(vector.type.count)]
    product = lanes[0]
    for lane in lanes[1:]:
        product = b.fmul(product, lane)
    sweep.add(b, start, b.fmul(dy, product))
    adjoint: Value = Poison(vector.type)
    for i in range(len(lanes)):
        others = b.fmul(dy, s)
        for j, lane in enumerate(lanes):
            if j != i:
                others = b.fmul(others, lane)
        adjoint = b.insertelement(adjoint, others, ConstantInt(I32, i))
    sweep.add(b, vector, adjoint)


def _reduce_extremum(sweep, b: Builder, call: CallInst, dy: Value) -> None:
    """y = max v (or min): the adjoint goes to the first lane equal to y."""
    vector = call.args[0]
    v, y = sweep.primal(vector), sweep.primal(call)
    zero = float_constant(dy.type, 0.0)
    adjoint: Value = Poison(vector.type)
    taken = None
    for i in range(vector.type.count):
        hit = b.fcmp("oeq", lane_of(b, v, i), y)
        if taken is not None:
            hit = b.select(taken, ConstantInt(hit.type, 0), hit)
            taken = b.binary("or", taken, hit)
        else:
            taken = hit
        adjoint = b.insertelement(adjoint, b.select(hit, dy, zero), ConstantInt(I32, i))
    sweep.add(b, vector, adjoint)


HANDLERS = {
    "sincos": sincos, "frexp": frexp, "modf": modf, "reduce_fadd": reduce_fadd,
    "reduce_fmul": reduce_fmul, "reduce_fmax": _reduce_extremum, "reduce_fmin": _reduce_extremum,
}
