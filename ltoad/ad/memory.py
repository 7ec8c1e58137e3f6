"""Sizes and float content of memory: the x86-64 data layout, and what a copied region holds.

`type_bytes`/`type_align` follow the x86-64 System V layout that clang and rustc use.
`region_kind` answers the classic question of a memcpy: which bytes hold floats? It looks at
every load and store the function makes through pointers based on the same objects; a region
only ever accessed as `double` (or `float`) holds floats, one with only pointer or integer
accesses holds none, and anything else is unknown (and the caller reports it).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..diagnostics import LtoadError
from ..ir.function import Function
from ..ir.instructions import (AllocaInst, CallBase, CastInst, GetElementPtrInst, Instruction,
                               LoadInst,
                               PhiInst, SelectInst, StoreInst)
from ..ir.types import (ArrayType, FloatType, IntType, NamedStructType, PointerType, StructType,
                        Type, VectorType)
from ..ir.values import ConstantExpr, Value

# Intrinsics that take a slot's address without storing anything through it.
MARKERS = ("llvm.lifetime.", "llvm.invariant.", "llvm.dbg.", "llvm.assume")
FLOAT_BYTES = {"half": 2, "bfloat": 2, "float": 4, "double": 8, "x86_fp80": 16, "fp128": 16}


def contains_float(type: Type) -> bool:
    """Whether values of `type` hold floating-point data (scalars, vectors, aggregates)."""
    if type.is_float():
        return True
    if isinstance(type, ArrayType):
        return contains_float(type.element)
    struct = _struct(type) if not (isinstance(type, NamedStructType) and type.body is None) else None
    return struct is not None and any(contains_float(e) for e in struct.elements)


def member_types(type: Type) -> list[Type]:
    """The element types of an array or struct type."""
    if isinstance(type, ArrayType):
        return [type.element] * type.count
    return list(_struct(type).elements)


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


def base_objects(pointer: Value, slots: dict[Value, list[Value]] | None = None) -> set[Value]:
    """The allocations or arguments a pointer may be derived from (GEPs, casts, phis, selects,
    and, given `slots`, pointers reloaded from stack slots they were stored into)."""
    bases, stack, seen = set(), [pointer], set()
    while stack:
        value = stack.pop()
        if value in seen:
            continue
        seen.add(value)
        reloaded = _reloaded_from(value, slots)
        if reloaded is not None:
            stack.extend(reloaded)
        elif isinstance(value, (GetElementPtrInst, CastInst)) or \
                (isinstance(value, ConstantExpr) and value.operands):
            stack.append(value.operands[0])
        elif isinstance(value, PhiInst):
            stack.extend(v for v, _ in value.incoming)
        elif isinstance(value, SelectInst):
            stack.extend(value.operands[1:])
        else:
            bases.add(value)
    return bases


def _reloaded_from(value: Value, slots) -> list[Value] | None:
    if slots is None or not isinstance(value, LoadInst):
        return None
    found = [slots[b] for b in base_objects(value.pointer) if b in slots]
    return [v for values in found for v in values] if found else None


def _declared_element(base: Value) -> Type | None:
    """The scalar a stack slot was declared to hold (`alloca double`, `alloca [8 x i32]`)."""
    if not isinstance(base, AllocaInst):
        return None
    declared = base.allocated_type
    while isinstance(declared, (ArrayType, VectorType)):
        declared = declared.element
    return None if _struct(declared) is not None else declared


def declared_type(pointer: Value) -> Type | None:
    """The scalar type the source declares at `pointer`: a stack slot's type, or the member a
    GEP with constant indices selects (`getelementptr %struct.S, ptr p, i32 0, i32 1`)."""
    if isinstance(pointer, AllocaInst):
        return _declared_element(pointer)
    if not isinstance(pointer, GetElementPtrInst) or len(pointer.indices) < 2:
        return None
    current = pointer.source_element_type
    for index in pointer.indices[1:]:
        if isinstance(current, (ArrayType, VectorType)):
            current = current.element
        elif _struct(current) is not None and hasattr(index, "value"):
            members = _struct(current).elements
            if not 0 <= index.value < len(members):
                return None
            current = members[index.value]
        else:
            return None
    while isinstance(current, (ArrayType, VectorType)):
        current = current.element
    return None if _struct(current) is not None else current


def bits_read_as(load: Instruction) -> FloatType | None:
    """The float type an integer load is reinterpreted as (all its users bitcast it)."""
    if not isinstance(load, LoadInst) or not load.type.is_integer() or not load.users:
        return None
    targets = {u.type for u in load.users if isinstance(u, CastInst) and u.opcode == "bitcast"}
    if len(targets) == 1 and len(load.users) == sum(1 for _ in load.users) and \
            all(isinstance(u, CastInst) and u.opcode == "bitcast" for u in load.users):
        target = targets.pop()
        return target if isinstance(target, FloatType) else None
    return None


def _is_bit_copy(inst: Instruction) -> bool:
    """An integer load only stored elsewhere, or the store of one: bits moved, not read as
    anything, so they say nothing about what the memory holds."""
    if isinstance(inst, StoreInst):
        inst = inst.value
    if not isinstance(inst, LoadInst) or not inst.type.is_integer():
        return False
    users = inst.users
    return bool(users) and all(isinstance(u, StoreInst) and u.value is inst for u in users)


def pointer_stores_into_locals(function: Function) -> dict[Value, list[Value]]:
    """For each stack slot of the function, the pointer values stored into it (a slot whose
    address escapes to a call is left out: anything may be stored there)."""
    slots = {i: [] for i in function.instructions() if isinstance(i, AllocaInst)}
    for inst in function.instructions():
        if isinstance(inst, StoreInst) and isinstance(inst.value.type, PointerType):
            for base in base_objects(inst.pointer) & slots.keys():
                slots[base].append(inst.value)
        elif isinstance(inst, CallBase) and not (inst.called_name or "").startswith(MARKERS):
            for arg in inst.args:
                for base in base_objects(arg) & slots.keys():
                    slots.pop(base, None)
    return slots


NO_FLOATS = ("pointers", "ints")


@dataclass(frozen=True)
class Region:
    """What a region of memory holds: `floats` (all of one float type), `pointers` (pointers,
    maybe integers), `ints` (integers only) or `unknown`."""
    kind: str
    element: FloatType | None = None


def region_kind(function: Function, pointers: list[Value], ignore=(),
                hints: dict[Value, Type] | None = None) -> Region:
    """What the memory behind `pointers` holds, from every load and store the function makes
    through pointers based on the same objects (stack slots followed), except `ignore`, and
    from `hints`: what the callers know an argument points to."""
    slots = pointer_stores_into_locals(function)
    bases = set().union(*(base_objects(p, slots) for p in pointers))
    kinds: set[Type] = {hints[b] for b in bases if b in (hints or {})}
    kinds |= {_declared_element(b) for b in bases if _declared_element(b) is not None}
    for inst in function.instructions():
        if inst in ignore or _is_bit_copy(inst):
            continue
        if isinstance(inst, (LoadInst, StoreInst)) and base_objects(inst.pointer, slots) & bases:
            accessed = inst.type if isinstance(inst, LoadInst) else inst.value.type
            kinds.add((bits_read_as(inst) or accessed).scalar)
    floats = {k for k in kinds if isinstance(k, FloatType)}
    if len(floats) == 1 and kinds == floats:
        return Region("floats", floats.pop())
    if kinds and not floats:
        return Region("pointers" if any(isinstance(k, PointerType) for k in kinds) else "ints")
    return Region("unknown")


TBAA_FLOATS = {"double": "double", "float": "float", "long double": "x86_fp80"}
_TBAA_NAME = re.compile(r'^!\{!"([^"]*)"')
_TBAA_TAG = re.compile(r"^!\{!(\d+), !(\d+),")


def tbaa_access(module, inst: Instruction) -> str | None:
    """The C type a load or store is tagged with (!tbaa access type), e.g. 'double'."""
    tag = inst.get_metadata("tbaa")
    match = _TBAA_TAG.match(module.metadata.get(tag[1:], "")) if tag else None
    name = _TBAA_NAME.match(module.metadata.get(match.group(2), "")) if match else None
    return name.group(1) if name else None


def integer_copy_kind(module, function: Function, load: LoadInst, store: StoreInst,
                      hints: dict[Value, Type] | None = None) -> Region:
    """What an integer load/store pair copies: floats (the classic struct/memcpy lowering to
    `load i64`), pointers, integers, or unknown. From the TBAA tags, else the other accesses."""
    width = load.type.bits if hasattr(load.type, "bits") else 0
    tags = {tbaa_access(module, load), tbaa_access(module, store)} - {None, "omnipotent char"}
    if len(tags) == 1:
        tag = tags.pop()
        if tag in TBAA_FLOATS:
            kind = FloatType(TBAA_FLOATS[tag])
            return Region("floats", kind) if type_bytes(kind) * 8 == width else Region("unknown")
        return Region("pointers" if tag.startswith(("p1 ", "p2 ", "p3 ", "any pointer")) else "ints")
    declared = {t for t in (declared_type(load.pointer), declared_type(store.pointer)) if t}
    floats = {t for t in declared if isinstance(t, FloatType) and type_bytes(t) * 8 == width}
    if floats:
        return Region("floats", floats.pop())
    if declared:
        return Region("pointers" if any(isinstance(t, PointerType) for t in declared) else "ints")
    region = region_kind(function, [load.pointer, store.pointer], ignore=(load, store), hints=hints)
    if region.kind == "floats" and type_bytes(region.element) * 8 != width:
        return Region("unknown")
    return region
