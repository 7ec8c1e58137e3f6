"""Forward mode: the tangent sweep, `fwddiff_f(args..., shadows and tangents of dup args...)`.

A clone of f in which every active value `v` gets its tangent `dv` next to it, computed from the
rule table (`dy = sum_i partial_i * dx_i`, the same partials reverse mode uses), and every
shadowed pointer its shadow, exactly as in the augmented sweep (forward_sweep.py, which this
extends). Shadow memory holds tangents: a load from shadowed memory also loads its tangent, a
store also stores one, memcpy/memmove/memset are mirrored on the shadows. Because tangents move
forward with the data, integers that copy float bits need no type: they carry their tangent bits.
A call to an active function calls its own forward derivative, which returns `{ y, dy }`.
There is no tape: nothing runs backwards.
"""

from __future__ import annotations

from ..diagnostics import LtoadError
from ..ir.builder import Builder
from ..ir.function import Argument, Function
from ..ir.instructions import (AllocaInst, BinaryOperator, CallInst, CastInst, ExtractElementInst,
                               ExtractValueInst, FreezeInst, InsertElementInst, InsertValueInst,
                               Instruction, LoadInst, PhiInst, SelectInst,
                               ShuffleVectorInst, StoreInst)
from ..ir.types import (PTR, VOID, FunctionType, PointerType, StructType)
from ..ir.values import GlobalRef, Poison, Value
from . import rules, special_tangents
from .knowledge import canonical
from .memory import contains_float
from .formulas import FormulaEmitter, zero_of
from ..analysis.loops import reverse_postorder
from .forward_sweep import ForwardSweep, _insert_after

# Integer operations that only move bits: applied to tangent bits, they move the tangent along.
BIT_MOVES = ("bitcast", "trunc", "zext", "shl", "lshr", "or", "freeze")


class TangentSweep(ForwardSweep):
    """Turns a clone of the primal into fwddiff_f; `tangent` maps values to their tangents."""

    def __init__(self, function: Function, activities: tuple[str, ...], activity, forward_callee,
                 where, global_shadows=None, module=None, lane: str = ""):
        super().__init__(function, activities, activity, None, where, global_shadows, module,
                         with_tape=False, lane=lane)
        self.forward_callee = forward_callee     # (call, activity) -> (callee, activities, paired)
        self.tangent: dict[Value, Value] = {}
        self.tangent_phis: list[tuple[PhiInst, PhiInst]] = []
        for arg in list(self.shadow):
            if isinstance(arg, Argument) and not isinstance(arg.type, PointerType):
                self.tangent[arg] = self.shadow.pop(arg)

    def tangent_of(self, value: Value) -> Value:
        return self.tangent.get(value) or zero_of(value.type)

    def has_tangent(self, value: Value) -> bool:
        return value in self.tangent

    def finish(self) -> None:
        super().finish()
        for phi, tangent in self.tangent_phis:
            for value, block in phi.incoming:
                tangent.add_incoming(self.tangent_of(value), block)

    # ---- per instruction ----------------------------------------------------------------

    def _make_shadow(self, inst: Instruction) -> Instruction:
        if not isinstance(inst, AllocaInst):
            return super()._make_shadow(inst)
        made = _insert_after(inst, AllocaInst(inst.allocated_type, inst.count, inst.align))
        size, after = self._alloca_bytes(made)    # nothing runs backwards: the stack will do
        self._zero(made, size, after)
        made.name = f"{inst.name}.shadow" if inst.name else None
        self.shadow[inst] = made
        return made

    def _mirror(self, inst: Instruction) -> None:
        points = self.activity.points_into_shadowed
        if isinstance(inst, StoreInst) and points(inst.pointer) \
                and not isinstance(inst.value.type, PointerType) \
                and inst.value not in self.activity.shadowed:
            _insert_after(inst, StoreInst(self.tangent_of(inst.value),
                                          self.shadow_of(inst.pointer, inst), align=inst.align))
        elif isinstance(inst, LoadInst) and points(inst.pointer) \
                and not isinstance(inst.type, PointerType) and inst not in self.activity.shadowed:
            self.tangent[inst] = _insert_after(inst, LoadInst(inst.type,
                                                              self.shadow_of(inst.pointer, inst),
                                                              align=inst.align))
        elif isinstance(inst, CallInst):
            self._mirror_call(inst)
        elif isinstance(inst, StoreInst):
            super()._mirror(inst)
        elif isinstance(inst, PhiInst) and inst in self.activity.varied:
            made = self._after(inst).phi(inst.type)      # incoming tangents once all are made
            self.tangent_phis.append((inst, made))
            self.tangent[inst] = made
        elif not inst.is_terminator and inst.type != VOID \
                and any(self.has_tangent(op) for op in inst.operands):
            self._tangent_rule(inst)

    def _mirror_call(self, call: CallInst) -> None:
        name = call.called_name or ""
        if self._mirror_memory_intrinsic(call):     # tangents move with the data
            return
        if name in self.activity.knowledge.deallocators and call.args \
                and self.activity.points_into_shadowed(call.args[0]):
            self._free_shadow(call)
        elif self.activity.is_active_call(call):
            self._forward_call(call)
        elif any(self.has_tangent(a) for a in call.args):
            self._tangent_rule(call)

    def _free_shadow(self, call: CallInst) -> None:
        """The shadow goes when its memory goes: with the same deallocator, or with free when
        the shadow came from malloc (Rust's allocator shims)."""
        shadow = self.shadow_of(call.args[0], call)
        if canonical(call.called_name).startswith("__r"):
            self.declarations["free"] = "declare void @free(ptr)"
            _insert_after(call, CallInst(FunctionType(VOID, (PTR,), False), GlobalRef("free"),
                                         [shadow]))
        else:
            _insert_after(call, CallInst(call.function_type, call.callee,
                                         [shadow, *call.args[1:]]))

    def _after(self, inst: Instruction) -> Builder:
        b = Builder()
        block = inst.parent
        index = len(block.phis) if isinstance(inst, PhiInst) \
            else block.instructions.index(inst) + 1
        b.position_before(block.instructions[index])
        return b

    def _tangent_rule(self, inst: Instruction) -> None:
        b = self._after(inst)
        tangent = self._structural(b, inst)
        if tangent is None:
            tangent = self._from_partials(b, inst)
        if tangent is not None:
            self.tangent[inst] = tangent

    def _structural(self, b: Builder, inst: Instruction) -> Value | None:
        """Operations that move values around: the same operation on the tangents."""
        t = self.tangent_of
        if isinstance(inst, SelectInst):
            return b.select(inst.condition, t(inst.operands[1]), t(inst.operands[2]))
        if isinstance(inst, ExtractValueInst):
            return b.extractvalue(t(inst.aggregate), inst.indices)
        if isinstance(inst, InsertValueInst):
            return b.insertvalue(t(inst.operands[0]), t(inst.operands[1]), inst.indices)
        if isinstance(inst, ExtractElementInst):
            return b.extractelement(t(inst.operands[0]), inst.operands[1])
        if isinstance(inst, InsertElementInst):
            return b.insertelement(t(inst.operands[0]), t(inst.operands[1]), inst.operands[2])
        if isinstance(inst, ShuffleVectorInst):
            return b.shufflevector(t(inst.operands[0]), t(inst.operands[1]), inst.mask)
        if isinstance(inst, FreezeInst):
            return t(inst.operands[0])
        if isinstance(inst, CastInst) and inst.opcode in ("fpext", "fptrunc", *BIT_MOVES):
            return b.cast(inst.opcode, t(inst.operands[0]), inst.type)
        if isinstance(inst, BinaryOperator) and inst.opcode in BIT_MOVES:
            return b.binary(inst.opcode, t(inst.operands[0]), t(inst.operands[1]))
        return None

    def _from_partials(self, b: Builder, inst: Instruction) -> Value | None:
        """dy = sum_i partial_i(x, y) * dx_i over the operands that have tangents."""
        if isinstance(inst, CastInst):
            return None        # sitofp, uitofp: integers carry no derivative
        is_call = isinstance(inst, CallInst)
        special = is_call and (rule := rules.lookup(inst.called_name or "")) is not None \
            and rule.special in special_tangents.HANDLERS
        if not special and not contains_float(inst.type):
            return None                       # comparisons, float-to-int: no tangent
        operands = list(inst.args) if is_call else list(inst.operands)
        name = (inst.called_name or "") if is_call else inst.opcode
        rule = rules.lookup(name)
        if is_call and (self.activity.knowledge.is_inactive(name) or rules.is_non_differentiable(name)):
            return None
        if rule is not None and rule.special in special_tangents.HANDLERS:
            return special_tangents.HANDLERS[rule.special](self, b, inst)
        if rule is None or rule.special:
            raise LtoadError(f"cannot differentiate {self.where(inst)} in forward mode: "
                             f"no tangent rule for '{name}'")
        emitter = FormulaEmitter(b, inst.type)
        env = {"y": inst, **{f"x{i}": op for i, op in enumerate(operands)}}
        total = None
        for index, partial in enumerate(rule.partials):
            if partial is None or not self.has_tangent(operands[index]):
                continue
            term = self._times(b, emitter, partial, env, self.tangent[operands[index]])
            total = term if total is None else b.fadd(total, term)
        self.declarations.update(emitter.declarations)
        return total

    @staticmethod
    def _times(b: Builder, emitter: FormulaEmitter, partial, env, tangent: Value) -> Value:
        if partial.op == "num" and partial.value == 1.0:
            return tangent
        if partial.op == "num" and partial.value == -1.0:
            return b.fneg(tangent)
        return b.fmul(emitter.emit(partial, env), tangent)

    # ---- calls and returns --------------------------------------------------------------

    def _forward_call(self, call: CallInst) -> None:
        replace_forward_call(call, [self], self.forward_callee)

    def call_extras(self, call: CallInst, activities) -> list[Value]:
        """This sweep's shadows and tangents of a call's dup arguments, in order."""
        return [self.shadow_of(a, call) if isinstance(a.type, PointerType) else self.tangent_of(a)
                for a, act in zip(call.args, activities) if act == "dup"]

    def pair_returns(self) -> None:
        pair_returns(self.f, [self])


def replace_forward_call(call: CallInst, lanes: list[TangentSweep], forward_callee) -> None:
    """Replace an active call by one call of the callee's forward derivative for all `lanes`
    (directions): `{ y, dy_0, ..., dy_N-1 }` when its result has tangents."""
    first = lanes[0]
    has_tangent = lambda value: any(lane.has_tangent(value) for lane in lanes)   # noqa: E731
    choose, activities, paired = forward_callee(call, first.activity, has_tangent, len(lanes))
    args = [*call.args, *(v for lane in lanes for v in lane.call_extras(call, activities))]
    returns = StructType((call.type,) * (len(lanes) + 1)) if paired else call.type
    block = call.parent

    def insert(instruction: Instruction) -> Instruction:
        block.insert(block.instructions.index(call), instruction)
        return instruction

    made = insert(CallInst(FunctionType(returns, tuple(a.type for a in args), False),
                           choose(insert), args))
    result: Value = made
    if paired:
        result = last = _insert_after(made, ExtractValueInst(made, [0]))
        for k, lane in enumerate(lanes, 1):
            last = _insert_after(last, ExtractValueInst(made, [k]))
            if isinstance(call.type, PointerType):
                lane.shadow[result] = last
            else:
                lane.tangent[result] = last
        if isinstance(call.type, PointerType):
            first.activity.shadowed.add(result)
    call.replace_all_uses_with(result)
    for table in (first.activity.varied, first.activity.shadowed):
        if call in table:
            table.discard(call)
            table.add(result)
    index = first.original[block].index(call)
    for lane in lanes:
        lane.original[block][index] = made
    result_name = call.name
    call.erase()
    result.name = result_name


def pair_returns(function: Function, lanes: list[TangentSweep]) -> None:
    """Make every `ret v` return `{ v, dv_0, ..., dv_N-1 }` (shadows for a pointer)."""
    returns = StructType((function.return_type,) * (len(lanes) + 1))
    for block in lanes[0].return_blocks():
        ret = block.terminator
        index = block.instructions.index(ret)
        value = ret.value
        packed: Value = InsertValueInst(Poison(returns), value, [0])
        block.insert(index, packed)
        for k, lane in enumerate(lanes, 1):
            second = lane.shadow_of(value, ret) if isinstance(value.type, PointerType) \
                else lane.tangent_of(value)
            index += 1
            packed = block.insert(index, InsertValueInst(packed, second, [k]))
        ret.set_operand(0, packed)
    function.return_type = returns


class VectorTangentSweep:
    """Forward mode for N directions in one pass over the function: one TangentSweep per
    direction (its own shadow arguments and tangents) visits each primal instruction in turn,
    and an active call goes once to the callee's width-N derivative."""

    def __init__(self, function: Function, activities: tuple[str, ...], activity, forward_callee,
                 where, global_shadows, module, width: int):
        first = TangentSweep(function, activities, activity, forward_callee, where,
                             global_shadows, module, lane=".0")
        first.lower_active_invokes()
        self.lanes = [first] + [TangentSweep(function, activities, activity, forward_callee, where,
                                             global_shadows, module, lane=f".{k}")
                                for k in range(1, width)]
        self.function = function
        self.forward_callee = forward_callee

    @property
    def declarations(self) -> dict[str, str]:
        return {k: v for lane in self.lanes for k, v in lane.declarations.items()}

    def run(self) -> None:
        first = self.lanes[0]
        for block in reverse_postorder(self.function):
            for instruction in list(first.original[block]):
                if isinstance(instruction, CallInst) and first.activity.is_active_call(instruction):
                    replace_forward_call(instruction, self.lanes, self.forward_callee)
                else:
                    for lane in self.lanes:
                        lane.visit(instruction)
        for lane in self.lanes:
            lane.finish()

    def pair_returns(self) -> None:
        pair_returns(self.function, self.lanes)
