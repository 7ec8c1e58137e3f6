"""Activity analysis: which values carry derivatives and which pointers have shadows.

A float value is *varied* when it depends on an active input: an `out` argument, a load through
a shadowed pointer, or an operation or call on varied values. A pointer is *shadowed* when it
points into memory whose derivative ltoad tracks: a `dup` argument, a stack or heap allocation
made by the function, or a pointer derived from or loaded through a shadowed one. The analysis
is conservative: calling a value varied when it is not only costs time.
"""

from __future__ import annotations

from ..ir.function import Function
from ..ir.instructions import (AllocaInst, CallBase, CastInst, ExtractElementInst,
                               ExtractValueInst, GetElementPtrInst, InsertElementInst,
                               InsertValueInst, Instruction, LoadInst, PhiInst, SelectInst,
                               ShuffleVectorInst, StoreInst)
from ..ir.types import I64, PointerType
from ..ir.values import ConstantExpr, GlobalRef, InlineAsm, Value
from . import rules
from .knowledge import Knowledge
from .memory import base_objects, contains_float, pointer_stores_into_locals

MEMORY_INTRINSICS = ("llvm.memcpy", "llvm.memmove", "llvm.memset", "llvm.lifetime", "llvm.dbg")
POINTER_TRANSFERS = ("getelementptr", "bitcast", "addrspacecast", "freeze")
FLOAT_TRANSFERS = ("fadd", "fsub", "fmul", "fdiv", "frem", "fneg", "fpext", "fptrunc", "freeze")


def reinterpreted_load(inst: Value) -> LoadInst | None:
    """For `bitcast (load iN p) to <float>`: the integer load (float bits read as integers)."""
    if isinstance(inst, CastInst) and inst.opcode == "bitcast" and inst.type.is_float() \
            and isinstance(inst.operands[0], LoadInst) and inst.operands[0].type.is_integer():
        return inst.operands[0]
    return None


def carries_float(value: Value) -> bool:
    return contains_float(value.type)


class Activity:
    def __init__(self, function: Function, activities: tuple[str, ...], knowledge: Knowledge,
                 defined: set[str], indirect_candidates=lambda function_type: [],
                 shadowed_globals: tuple[Value, ...] = ()):
        self.function = function
        self.knowledge = knowledge
        self.defined = defined          # names of functions with bodies
        self.indirect_candidates = indirect_candidates  # function type -> known targets
        self.varied: set[Value] = set()
        self.shadowed: set[Value] = set()
        self.pointer_stores = pointer_stores_into_locals(function)
        self.hints: dict[Value, object] = {}   # float types callers know arguments point to
        self.shadowed.update(shadowed_globals)
        for arg, activity in zip(function.args, activities):
            if activity in ("dup", "dupnoneed"):
                self.shadowed.add(arg)
            elif activity == "out" and carries_float(arg):
                self.varied.add(arg)
        self._solve()

    def _solve(self) -> None:
        changed = True
        while changed:
            changed = False
            for instruction in self.function.instructions():
                if instruction not in self.varied and self._is_varied(instruction):
                    self.varied.add(instruction)
                    changed = True
                if instruction not in self.shadowed and self._is_shadowed(instruction):
                    self.shadowed.add(instruction)
                    changed = True

    def points_into_shadowed(self, pointer: Value) -> bool:
        """A shadowed pointer, or a constant expression (GEP/cast) on a shadowed global."""
        if pointer in self.shadowed:
            return True
        return isinstance(pointer, ConstantExpr) and bool(pointer.operands) \
            and self.points_into_shadowed(pointer.operands[0])

    def globals_needing_shadow(self) -> set[str]:
        """Writable globals that active values are stored into."""
        found = set()
        for store in self.stores_needing_shadow():
            found |= {b.name for b in base_objects(store.pointer) if isinstance(b, GlobalRef)}
        return found

    def any_varied(self, values) -> bool:
        return any(v in self.varied for v in values)

    def is_active_call(self, call: CallBase) -> bool:
        """A call whose callee has a body and that sees varied values or shadowed memory."""
        name = call.called_name
        if name is None:
            if isinstance(call.callee, InlineAsm) or not self.indirect_candidates(call.function_type):
                return False
        elif name not in self.defined or self.knowledge.is_inactive(name):
            return False
        return self.touches_active_data(call)

    def _is_varied(self, inst: Instruction) -> bool:
        if not carries_float(inst):
            return False
        if isinstance(inst, LoadInst):
            return self.points_into_shadowed(inst.pointer)
        if reinterpreted_load(inst) is not None:       # bitcast (load iN p) to double
            return self.points_into_shadowed(reinterpreted_load(inst).pointer)
        if isinstance(inst, PhiInst):
            return self.any_varied(v for v, _ in inst.incoming)
        if isinstance(inst, SelectInst):
            return self.any_varied(inst.operands[1:])
        if isinstance(inst, CallBase):
            if self.is_active_call(inst):
                return True
            rule = rules.lookup(inst.called_name or "")
            return rule is not None and self.any_varied(inst.args)
        if isinstance(inst, (ExtractElementInst, InsertElementInst, ShuffleVectorInst,
                             ExtractValueInst, InsertValueInst)) or inst.opcode in FLOAT_TRANSFERS:
            return self.any_varied(inst.operands)
        return False

    def _is_shadowed(self, inst: Instruction) -> bool:
        if inst.type == I64:
            return self._is_address_integer(inst)
        if not isinstance(inst.type, PointerType):
            return False
        if isinstance(inst, CastInst) and inst.opcode == "inttoptr":
            return inst.operands[0] in self.shadowed
        if isinstance(inst, AllocaInst):
            return True
        if isinstance(inst, (GetElementPtrInst, CastInst)) and inst.opcode in POINTER_TRANSFERS:
            return self.points_into_shadowed(inst.operands[0])
        if isinstance(inst, LoadInst):
            return self.points_into_shadowed(inst.pointer) and self._may_hold_shadows(inst.pointer)
        if isinstance(inst, PhiInst):
            return any(v in self.shadowed for v, _ in inst.incoming)
        if isinstance(inst, SelectInst):
            return any(v in self.shadowed for v in inst.operands[1:])
        if isinstance(inst, CallBase):
            return (inst.called_name or "") in self.knowledge.allocators or self.is_active_call(inst)
        return False

    def _is_address_integer(self, inst: Instruction) -> bool:
        """An i64 holding a shadowed pointer (`ptrtoint`, and phis or selects of those): the
        optimizer moves pointers as integers, and `inttoptr` makes them pointers again."""
        if isinstance(inst, CastInst) and inst.opcode == "ptrtoint":
            return self.points_into_shadowed(inst.operands[0])
        if isinstance(inst, PhiInst):
            return any(v in self.shadowed for v, _ in inst.incoming)
        if isinstance(inst, SelectInst):
            return any(v in self.shadowed for v in inst.operands[1:])
        return False

    def touches_active_data(self, call: CallBase) -> bool:
        return any(a in self.varied or self.points_into_shadowed(a) for a in call.args)

    def undifferentiable_calls(self) -> list[tuple[CallBase, tuple[str, str]]]:
        """Calls that see active data but that ltoad cannot differentiate: (what, why)."""
        found = []
        for call in (i for i in self.function.instructions() if isinstance(i, CallBase)):
            if not self.touches_active_data(call):
                continue
            reason = self._unsupported_callee(call)
            if reason:
                found.append((call, reason))
        return found

    def _unsupported_callee(self, call: CallBase) -> tuple[str, str] | None:
        if isinstance(call.callee, InlineAsm):
            return "inline assembly", "it reads or writes active data"
        name = call.called_name
        if name is None:
            if self.indirect_candidates(call.function_type):
                return None
            return "an indirect call", "no function of its type has its address taken"
        known = self.knowledge
        if (name in self.defined and not known.is_inactive(name)) or known.is_inactive(name) \
                or rules.lookup(name) or rules.is_non_differentiable(name) \
                or name in known.allocators or name in known.deallocators \
                or name.startswith(MEMORY_INTRINSICS):
            return None
        return f"call to '{name}'", "no body and no derivative rule"

    def _may_hold_shadows(self, pointer: Value) -> bool:
        """Whether memory at `pointer` can hold pointers that have shadows. Stack slots hold
        one only if a shadowed pointer is stored there (at -O0 every local lives in one)."""
        for base in base_objects(pointer):
            stored = self.pointer_stores.get(base)
            if stored is None or any(v in self.shadowed for v in stored):
                return True
        return False

    def stores_needing_shadow(self) -> list[StoreInst]:
        """Stores of varied values through pointers without a shadow (unsupported), except
        into globals marked inactive (whose derivative is dropped on purpose)."""
        return [i for i in self.function.instructions() if isinstance(i, StoreInst)
                and i.value in self.varied and not self.points_into_shadowed(i.pointer)
                and not self._into_inactive_global(i.pointer)]

    def _into_inactive_global(self, pointer: Value) -> bool:
        return all(isinstance(b, GlobalRef) and self.knowledge.is_inactive(b.name)
                   for b in base_objects(pointer))
