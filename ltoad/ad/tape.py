"""The tape: a growable byte stack the forward sweep pushes to and the reverse sweep pops from.

A tape is `{ ptr data, i64 top, i64 capacity }` in the caller's memory. Every slot is a multiple
of 8 bytes, so loads and stores are 8-aligned. Pushes happen in program order and pops in exact
reverse order, so nested calls, loops and recursion share one tape.
"""

from __future__ import annotations

from itertools import accumulate

from ..analysis.loops import blocks_in_cycles
from ..ir.function import Block, Function
from ..ir.instructions import (AllocaInst, CallBase, CallInst, GetElementPtrInst, Instruction,
                               LoadInst, StoreInst)
from ..ir.types import I8, I64, PTR, ArrayType, FunctionType, StructType, Type
from ..ir.values import ConstantInt, GlobalRef, Value
from .memory import type_bytes

PUSH, POP = "__ltoad_tape_push", "__ltoad_tape_pop"
# Bytes the last request's forward sweep put on the tape; programs may read it (benchmarks):
# `extern long __ltoad_last_tape_bytes __attribute__((weak));`
LAST_TAPE_BYTES = "__ltoad_last_tape_bytes"
LAST_TAPE_BYTES_DEFINITION = f"@{LAST_TAPE_BYTES} = global i64 0, align 8"
TAPE_TYPE = StructType((PTR, I64, I64))
SLOT_FN = FunctionType(PTR, (PTR, I64), False)

RUNTIME = f"""
define internal ptr @{PUSH}(ptr %tape, i64 %bytes) {{
entry:
  %top.p = getelementptr inbounds i8, ptr %tape, i64 8
  %cap.p = getelementptr inbounds i8, ptr %tape, i64 16
  %top = load i64, ptr %top.p, align 8
  %cap = load i64, ptr %cap.p, align 8
  %new = add i64 %top, %bytes
  %full = icmp ugt i64 %new, %cap
  br i1 %full, label %grow, label %done, !prof !{{!"branch_weights", i32 1, i32 4000}}

grow:
  %twice = shl i64 %cap, 1
  %want = call i64 @llvm.umax.i64(i64 %twice, i64 %new)
  %size = call i64 @llvm.umax.i64(i64 %want, i64 4096)
  %old = load ptr, ptr %tape, align 8
  %data = call ptr @realloc(ptr %old, i64 %size)
  store ptr %data, ptr %tape, align 8
  store i64 %size, ptr %cap.p, align 8
  br label %done

done:
  %base = load ptr, ptr %tape, align 8
  store i64 %new, ptr %top.p, align 8
  %slot = getelementptr inbounds i8, ptr %base, i64 %top
  ret ptr %slot
}}

define internal ptr @{POP}(ptr %tape, i64 %bytes) {{
entry:
  %top.p = getelementptr inbounds i8, ptr %tape, i64 8
  %top = load i64, ptr %top.p, align 8
  %new = sub i64 %top, %bytes
  store i64 %new, ptr %top.p, align 8
  %base = load ptr, ptr %tape, align 8
  %slot = getelementptr inbounds i8, ptr %base, i64 %new
  ret ptr %slot
}}
"""
# Requests reuse the last tape's memory (one buffer per thread, kept between requests), so a
# gradient called in a loop does not map, fault in and unmap a fresh tape every time.
BEGIN, END, CACHE = "__ltoad_tape_begin", "__ltoad_tape_end", "__ltoad_tape_cache"
REQUEST_RUNTIME = f"""
@{CACHE} = internal thread_local global {{ ptr, i64 }} zeroinitializer, align 8

define internal void @{BEGIN}(ptr %tape) {{
entry:
  %cache = call ptr @llvm.threadlocal.address.p0(ptr @{CACHE})
  %cache.cap = getelementptr inbounds i8, ptr %cache, i64 8
  %data = load ptr, ptr %cache, align 8
  %cap = load i64, ptr %cache.cap, align 8
  store ptr %data, ptr %tape, align 8
  %top.p = getelementptr inbounds i8, ptr %tape, i64 8
  store i64 0, ptr %top.p, align 8
  %cap.p = getelementptr inbounds i8, ptr %tape, i64 16
  store i64 %cap, ptr %cap.p, align 8
  store ptr null, ptr %cache, align 8
  store i64 0, ptr %cache.cap, align 8
  ret void
}}

define internal void @{END}(ptr %tape) {{
entry:
  %cache = call ptr @llvm.threadlocal.address.p0(ptr @{CACHE})
  %cache.cap = getelementptr inbounds i8, ptr %cache, i64 8
  %old = load ptr, ptr %cache, align 8
  call void @free(ptr %old)
  %data = load ptr, ptr %tape, align 8
  %cap.p = getelementptr inbounds i8, ptr %tape, i64 16
  %cap = load i64, ptr %cap.p, align 8
  store ptr %data, ptr %cache, align 8
  store i64 %cap, ptr %cache.cap, align 8
  ret void
}}
"""
# What a tape's begin and end stand for when a request is itself differentiated (forward over
# reverse): a fresh buffer that is freed at the end. The thread-local cache of the ordinary
# begin has no shadow, so the derivative must not see memory coming from it.
FRESH_BEGIN, FRESH_END = f"{BEGIN}.fresh", f"{END}.fresh"
FRESH_RUNTIME = f"""
define internal void @{FRESH_BEGIN}(ptr %tape) {{
entry:
  store ptr null, ptr %tape, align 8
  %top.p = getelementptr inbounds i8, ptr %tape, i64 8
  store i64 0, ptr %top.p, align 8
  %cap.p = getelementptr inbounds i8, ptr %tape, i64 16
  store i64 0, ptr %cap.p, align 8
  ret void
}}

define internal void @{FRESH_END}(ptr %tape) {{
entry:
  %data = load ptr, ptr %tape, align 8
  call void @free(ptr %data)
  ret void
}}
"""
DIFFERENTIATED_AS = {BEGIN: FRESH_BEGIN, END: FRESH_END}

# Functions the runtime text defines (differentiable like any other: forward over reverse).
RUNTIME_FUNCTIONS = (PUSH, POP, BEGIN, END, FRESH_BEGIN, FRESH_END)

# What split-mode requests call besides the tape runtime (the tape state lives on the heap).
SPLIT_DECLARATIONS = {"malloc": "declare ptr @malloc(i64)", "free": "declare void @free(ptr)"}

# Where an indirect call in a derivative goes when its target is none of the known functions.
UNKNOWN_TARGET = "__ltoad_unknown_target"
UNKNOWN_TARGET_RUNTIME = f"""
@.ltoad.unknown.target = private unnamed_addr constant [88 x i8] c"ltoad: a differentiated indirect call reached a function not known at link time; abort\\0A\\00"

define internal void @{UNKNOWN_TARGET}() noreturn {{
entry:
  %stderr = load ptr, ptr @stderr, align 8
  %written = call i32 @fputs(ptr @.ltoad.unknown.target, ptr %stderr)
  call void @abort()
  unreachable
}}
"""
RUNTIME_DECLARATIONS = {"realloc": "declare ptr @realloc(ptr, i64)",
                        "fputs": "declare i32 @fputs(ptr, ptr)",
                        "abort": "declare void @abort()",
                        "stderr": "@stderr = external global ptr",
                        "llvm.threadlocal.address.p0":
                            "declare ptr @llvm.threadlocal.address.p0(ptr)",
                        "free": "declare void @free(ptr)",
                        "llvm.umax.i64": "declare i64 @llvm.umax.i64(i64, i64)"}


def slot_bytes(type: Type) -> int:
    """Bytes a value of `type` takes on the tape (its size rounded up to 8)."""
    return (type_bytes(type) + 7) // 8 * 8


def frame_bytes(values) -> int:
    """Bytes one frame of `values` takes on the tape."""
    return sum(slot_bytes(v.type) for v in values)


def _slot(function: str, tape: Value, type: Type) -> CallInst:
    return CallInst(SLOT_FN, GlobalRef(function), [tape, ConstantInt(I64, slot_bytes(type))])


def insert_frame_push(block: Block, index: int, tape: Value, values: list[Value]) -> None:
    """Push `values` as one frame (one capacity check) at `index` of `block`."""
    total = frame_bytes(values)
    slot = CallInst(SLOT_FN, GlobalRef(PUSH), [tape, ConstantInt(I64, total)])
    block.insert(index, slot)
    offsets = accumulate((slot_bytes(v.type) for v in values), initial=0)   # each value's start
    _insert_stores(block, index + 1, slot, zip(values, offsets))


def _insert_stores(block: Block, index: int, base: Value, placed) -> None:
    """At `index` of `block`, store each (value, byte offset) of `placed` at base + offset."""
    for value, offset in placed:
        address = GetElementPtrInst(I8, base, [ConstantInt(I64, offset)], ["inbounds"])
        block.insert(index, address)
        block.insert(index + 1, StoreInst(value, address, align=8))
        index += 2


class PoppedFrame:
    """The values a reverse block pops, as one frame: one pop whose size is known at the end,
    then a load per value at its offset. Mirrors `insert_frame_push`."""

    def __init__(self, block: Block, tape: Value):
        self.block = block
        self.pop = CallInst(SLOT_FN, GlobalRef(POP), [tape, ConstantInt(I64, 0)])
        block.insert(0, self.pop)
        self.index = 1
        self.offset = 0

    def insert(self, instruction: Instruction) -> Instruction:
        """Insert a rebuilt value among the frame's loads (after what it depends on)."""
        self.block.insert(self.index, instruction)
        self.index += 1
        return instruction

    def load(self, type: Type) -> Instruction:
        address = GetElementPtrInst(I8, self.pop, [ConstantInt(I64, self.offset)], ["inbounds"])
        value = LoadInst(type, address, align=8)
        self.block.insert(self.index, address)
        self.block.insert(self.index + 1, value)
        self.index += 2
        self.offset += slot_bytes(type)
        return value

    def finish(self) -> None:
        if self.offset == 0:
            self.block.instructions.remove(self.pop)
            self.pop.drop_operands()
        else:
            self.pop.set_operand(1, ConstantInt(I64, self.offset))


def insert_pop(block: Block, index: int, tape: Value, type: Type) -> tuple[Instruction, int]:
    """Insert a pop of a `type` value at `index` of `block`; returns it and the next index."""
    slot = _slot(POP, tape, type)
    block.insert(index, slot)
    value = LoadInst(type, slot, align=8)
    block.insert(index + 1, value)
    return value, index + 2


# A request whose forward sweep pushes at most this many bytes gets its tape on the stack.
STACK_TAPE_LIMIT = 4096


def most_pushed(function: Function, tape: Value, callees: dict) -> int | None:
    """The most bytes one call of an augmented function can push on `tape`: every push outside
    a cycle counted once, with what the augmented functions it calls outside cycles push; None
    when a push or such a call sits on a cycle (a loop, or irreducible), or the tape goes to any
    other function. `callees` maps augmented function names to (function, its tape argument)."""
    cyclic = blocks_in_cycles(function)
    total = 0
    for inst in function.instructions():
        if not isinstance(inst, CallBase) or tape not in inst.args:
            continue
        name = inst.called_name
        if inst.parent in cyclic:
            return None
        if name == PUSH and isinstance(inst.args[1], ConstantInt):
            total += inst.args[1].value
        elif name in callees and name != function.name:
            inner = most_pushed(*callees[name], {k: v for k, v in callees.items() if k != name})
            if inner is None:
                return None
            total += inner
        else:
            return None
    return total


def use_stack_tape(wrapper: Function, size: int) -> None:
    """Give a request wrapper whose tape never holds more than `size` bytes a buffer on its
    stack instead of the thread's heap tape: no allocation, and once the sweeps are inlined
    its slots are plain stack slots the optimizer keeps in registers."""
    for inst in list(wrapper.instructions()):
        if not isinstance(inst, CallInst) or inst.called_name not in (BEGIN, END):
            continue
        if inst.called_name == BEGIN:
            buffer = wrapper.entry.insert(0, AllocaInst(ArrayType(size, I8), align=16))
            fields = [(buffer, 0), (ConstantInt(I64, 0), 8), (ConstantInt(I64, size), 16)]
            _insert_stores(inst.parent, inst.parent.instructions.index(inst), inst.args[0], fields)
        inst.erase()
