"""Tangent rules (forward mode) for the operations special_rules.py handles in reverse mode:
results in aggregates or memory, or lanes mixed. Each handler gets the tangent sweep, a builder
placed after the call and the call; it returns the call's tangent (None when the call has no
result that carries one) and stores tangents of results written through pointers.
"""

from __future__ import annotations

from ..ir.builder import Builder
from ..ir.instructions import CallInst
from ..ir.values import Value
from .formulas import FormulaEmitter, float_constant, zero_of
from .special_rules import COS, SIN, lane_of


def _store_tangent(sweep, b: Builder, pointer: Value, call: CallInst, tangent: Value) -> None:
    if sweep.activity.points_into_shadowed(pointer):
        b.store(tangent, sweep.shadow_of(pointer, call))


def sincos(sweep, b: Builder, call: CallInst) -> Value | None:
    """(s, c) = (sin x, cos x): (ds, dc) = (cos x dx, -sin x dx)."""
    x = call.args[0]
    emitter = FormulaEmitter(b, x.type)
    dx = sweep.tangent_of(x)
    ds = b.fmul(emitter.emit(COS, {"x0": x}), dx)
    dc = b.fneg(b.fmul(emitter.emit(SIN, {"x0": x}), dx))
    sweep.declarations.update(emitter.declarations)
    if len(call.args) == 3:
        _store_tangent(sweep, b, call.args[1], call, ds)
        _store_tangent(sweep, b, call.args[2], call, dc)
        return None
    return b.insertvalue(b.insertvalue(zero_of(call.type), ds, [0]), dc, [1])


def frexp(sweep, b: Builder, call: CallInst) -> Value:
    """x = m 2^e: dm = dx m / x (dx at x = 0); the exponent is an integer."""
    x = call.args[0]
    mantissa = call if len(call.args) == 2 else b.extractvalue(call, [0])
    at_zero = b.fcmp("oeq", x, float_constant(x.type, 0.0))
    ratio = b.select(at_zero, float_constant(x.type, 1.0), b.fdiv(mantissa, x))
    dm = b.fmul(sweep.tangent_of(x), ratio)
    if len(call.args) == 2:
        return dm
    return b.insertvalue(zero_of(call.type), dm, [0])


def modf(sweep, b: Builder, call: CallInst) -> Value:
    """x = i + f: df = dx, di = 0."""
    x = call.args[0]
    dx = sweep.tangent_of(x)
    if len(call.args) == 2:
        _store_tangent(sweep, b, call.args[1], call, float_constant(x.type, 0.0))
        return dx
    return b.insertvalue(zero_of(call.type), dx, [0])


def reduce_fadd(sweep, b: Builder, call: CallInst) -> Value:
    """y = s + sum v: dy = ds + sum dv."""
    start, vector = call.args
    dv = sweep.tangent_of(vector)
    total = sweep.tangent_of(start)
    for i in range(vector.type.count):
        total = b.fadd(total, lane_of(b, dv, i))
    return total


def reduce_fmul(sweep, b: Builder, call: CallInst) -> Value:
    """y = s prod v: dy = ds prod v + sum_i s dv_i prod_{j != i} v_j."""
    start, vector = call.args
    lanes = [lane_of(b, vector, i) for i in range(vector.type.count)]
    dv = sweep.tangent_of(vector)
    product = lanes[0]
    for lane in lanes[1:]:
        product = b.fmul(product, lane)
    total = b.fmul(sweep.tangent_of(start), product)
    for i in range(len(lanes)):
        term = b.fmul(start, lane_of(b, dv, i))
        for j, lane in enumerate(lanes):
            if j != i:
                term = b.fmul(term, lane)
        total = b.fadd(total, term)
    return total


def reduce_extremum(sweep, b: Builder, call: CallInst) -> Value:
    """y = max v (or min): dy = dv at the first lane equal to y."""
    vector = call.args[0]
    dv = sweep.tangent_of(vector)
    chosen: Value = float_constant(call.type, 0.0)
    for i in reversed(range(vector.type.count)):
        hit = b.fcmp("oeq", lane_of(b, vector, i), call)
        chosen = b.select(hit, lane_of(b, dv, i), chosen)
    return chosen


HANDLERS = {
    "sincos": sincos, "frexp": frexp, "modf": modf, "reduce_fadd": reduce_fadd,
    "reduce_fmul": reduce_fmul, "reduce_fmax": reduce_extremum, "reduce_fmin": reduce_extremum,
}
