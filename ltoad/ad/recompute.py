"""Values the reverse sweep rebuilds from other values instead of reading them from the tape.

Cheap integer and pointer arithmetic (GEPs, casts, integer operations, comparisons, selects
of non-floats) is re-emitted from its operands, which are themselves rebuilt, arguments,
constants or taped. A load is re-done when it reads memory that nothing writes while the
derivative runs: a primal argument the function never writes through, in the function a
request differentiates directly (its reverse sweep follows its forward sweep immediately).
"""

from __future__ import annotations

from ..ir.function import Argument, Function
from ..ir.instructions import (BinaryOperator, CallBase, CastInst, CompareInst,
                               GetElementPtrInst, Instruction, LoadInst, SelectInst, StoreInst)
from ..ir.values import Value
from .memory import base_objects

INTEGER_OPS = frozenset("add sub mul shl lshr ashr and or xor udiv sdiv urem srem".split())
CASTS = frozenset("zext sext trunc bitcast ptrtoint inttoptr addrspacecast".split())
READ_ONLY_CALLS = ("llvm.lifetime.", "llvm.assume", "llvm.dbg.", "llvm.experimental.noalias")
MAX_DEPTH = 8


def written_objects(function: Function, math_calls) -> set[Value]:
    """Objects the function may write: stored to, memory-intrinsic destinations, and every
    pointer handed to a call that is not a known read-only function."""
    written: set[Value] = set()
    for inst in function.instructions():
        if isinstance(inst, StoreInst):
            written |= base_objects(inst.pointer)
        elif isinstance(inst, CallBase):
            name = inst.called_name or ""
            if name.startswith(READ_ONLY_CALLS) or math_calls(name):
                continue
            for arg in inst.args:
                if arg.type.is_pointer():
                    written |= base_objects(arg)
    return written


def rebuild(inst: Value, operands: list[Value]) -> Instruction | None:
    """A copy of a cheap instruction over new operands, or None if it is not cheap."""
    if isinstance(inst, GetElementPtrInst):
        return GetElementPtrInst(inst.source_element_type, operands[0], operands[1:], inst.flags)
    if isinstance(inst, CastInst) and inst.opcode in CASTS:
        return CastInst(inst.opcode, operands[0], inst.type, inst.flags)
    if isinstance(inst, BinaryOperator) and inst.opcode in INTEGER_OPS:
        return BinaryOperator(inst.opcode, operands[0], operands[1], inst.flags)
    if isinstance(inst, CompareInst) and inst.opcode == "icmp":
        return CompareInst("icmp", inst.predicate, operands[0], operands[1], inst.flags)
    if isinstance(inst, SelectInst) and not inst.type.is_float():
        return SelectInst(operands[0], operands[1], operands[2], inst.flags)
    return None


def is_cheap(inst: Value) -> bool:
    return rebuild(inst, list(getattr(inst, "operands", ()))) is not None


def reloadable(inst: Value, read_only: set[Value]) -> bool:
    """A load from memory that stays unchanged until the reverse sweep."""
    if not isinstance(inst, LoadInst) or inst.volatile or inst.is_atomic:
        return False
    bases = base_objects(inst.pointer)
    return bool(bases) and all(isinstance(b, Argument) and b in read_only for b in bases)
