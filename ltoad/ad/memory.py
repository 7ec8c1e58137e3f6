"""Sizes and float content of memory: the x86-64 data layout, and what a copied region holds.

`type_bytes`/`type_align` follow the x86-64 System V layout that clang and rustc use.
`region_element` answers the classic question of a memcpy: which bytes hold floats? It looks
at every load and store the function makes through pointers based on the same object; a region
only ever accessed as `double` (or `float`) is a float region, one with pointer or integer
accesses is not, and anything else is unknown (and the caller reports it).
"""

from __future__ import annotations

from ..diagnostics import LtoadError
from ..ir.function import Function
from ..ir.instructions import CastInst, GetElementPtrInst, LoadInst, PhiInst, SelectInst, StoreInst
from ..ir.types import (ArrayType, FloatType, IntType, NamedStructType, PointerType, StructType,
                        Type, VectorType)
from ..ir.values import Value

FLOAT_BYTES = {"half": 2, "bfloat": 2, "float": 4, "double": 8, "x86_fp80": 16, "fp128": 16}


def _struct(type: Type) -> StructType | None:
    if isinstance(type, NamedStructType):
        if type.body is None:
            raise LtoadError(f"cannot size opaque type {type}")
        return type.body
    return type if isinstance(type, StructType) else None


def type_align(type: Type) -> int:
    if isinstance(type, (ArrayType,)):
        return type_align(type.element)
    struct = _struct(type)
    if struct is not None:
        return 1 if struct.packed else max((type_align(e) for e in struct.elements), default=1)
    return min(type_bytes(type), 16) or 1


def type_bytes(type: Type) -> int:
    if isinstance(type, PointerType):
        return 8
    if isinstance(type, IntType):
        return 1 if type.bits <= 8 else 2 if type.bits <= 16 else 4 if type.bits <= 32 else \
            8 if type.bits <= 64 else 16
    if isinstance(type, FloatType):
        return FLOAT_BYTES[type.kind]
    if isinstance(type, ArrayType):
        return type.count * type_bytes(type.element)
    if isinstance(type, VectorType) and not type.scalable:
        return type.count * type_bytes(type.element)
    struct = _struct(type)
    if struct is not None:
        offset = 0
        for element in struct.elements:
            if not struct.packed:
                offset = -(-offset // type_align(element)) * type_align(element)
            offset += type_bytes(element)
        align = 1 if struct.packed else type_align(struct)
        return -(-offset // align) * align
    raise LtoadError(f"cannot size type {type}")


def base_objects(pointer: Value) -> set[Value]:
    """The allocations or arguments a pointer may be derived from (GEPs, casts, phis, selects)."""
    bases, stack, seen = set(), [pointer], set()
    while stack:
        value = stack.pop()
        if value in seen:
            continue
        seen.add(value)
        if isinstance(value, (GetElementPtrInst, CastInst)):
            stack.append(value.operands[0])
        elif isinstance(value, PhiInst):
            stack.extend(v for v, _ in value.incoming)
        elif isinstance(value, SelectInst):
            stack.extend(value.operands[1:])
        else:
            bases.add(value)
    return bases


def region_element(function: Function, pointers: list[Value]) -> FloatType | None:
    """The float type a region is accessed as, or None if it holds anything else / unknown."""
    bases = set().union(*(base_objects(p) for p in pointers))
    kinds: set[Type] = set()
    for instruction in function.instructions():
        if isinstance(instruction, (LoadInst, StoreInst)) and base_objects(instruction.pointer) & bases:
            accessed = instruction.type if isinstance(instruction, LoadInst) else instruction.value.type
            kinds.add(accessed.scalar)
    floats = {k for k in kinds if isinstance(k, FloatType)}
    if len(floats) == 1 and kinds == floats:
        return floats.pop()
    return None
