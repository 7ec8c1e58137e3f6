"""Where the reverse sweep gets the primal values its rules need, cheapest first.

For each value a reverse block asks for: an induction variable is rebuilt from its loop's
count, cheap arithmetic over values already at hand is redone, an entry-block value is read
from the entry record (taped once per call), a value defined outside a loop around the block is
kept in a stack slot (pushed once at the loop's exits), cheap arithmetic that tapes at most
MAX_NEW_TAPED values is redone, and anything else is taped: pushed at the end of the block by
the forward sweep, popped at the start of its reverse. `ReverseSweep` inherits this; the state
it uses (frames, popped, needed, kept and count slots, the entry record) is made there.
"""

from __future__ import annotations

from contextlib import contextmanager

from ..ir.function import Block
from ..ir.instructions import (AllocaInst, BinaryOperator, CallInst, CastInst, GetElementPtrInst,
                               Instruction, LoadInst, PhiInst, SelectInst, StoreInst)
from ..ir.types import I8, I64, PTR, Type
from ..ir.values import Constant, ConstantInt, GlobalRef, Value
from . import recompute, tape

# A value is rebuilt in the reverse block when that newly tapes at most this many values: two
# lets `gep base, i` be rebuilt from a taped base and index, which the block's other GEPs then
# share (a loop body addressing several arrays with one index tapes two values, not one each).
MAX_NEW_TAPED = 2
UNTAPABLE = 1 << 20


class ReverseValues:
    def primal(self, value: Value) -> Value:
        """The value of a primal (augmented) value inside the current reverse block."""
        if isinstance(value, Constant):
            return value
        if value in self.arg_map:
            return self.arg_map[value]
        block = self.block
        if value not in self.popped[block]:
            self._frame(block)
            self.popped[block][value] = (self._induction(value) or self._recomputed(value, 0)
                                         or self._from_entry_record(value) or self._kept(value)
                                         or self._recomputed(value, MAX_NEW_TAPED)
                                         or self._taped(value))
        return self.popped[block][value]

    def _frame(self, block: Block) -> tape.PoppedFrame:
        """What the reverse of `block` pops, made when it first needs something."""
        if block not in self.frames:
            self.frames[block] = tape.PoppedFrame(self.blocks[block], self.tape)
        return self.frames[block]

    def _taped(self, value: Value) -> Value:
        self.needed[self.block].append(value)
        return self.frames[self.block].load(value.type)

    def _in_record(self, value: Value) -> bool:
        entry = self.fwd.f.entry
        return getattr(value, "parent", None) is entry and self.block is not entry

    def _keeping_loop(self, value: Value):
        definition = getattr(value, "parent", None)
        if not isinstance(definition, Block) or not self._available(value):
            return None
        return self.loops.keeping_loop(definition, self.block)

    def _kept(self, value: Value) -> Value | None:
        """A value defined outside a loop around this block: pushed once at the loop's exits,
        kept in a stack slot while the reverse runs the loop."""
        loop = self._keeping_loop(value)
        if loop is None:
            return None
        key = (value, loop)
        if key not in self.kept:
            self.kept[key] = self._stack_slot(value.type)
            self._store_at_exits(loop, value, self.kept[key])
        return self.frames[self.block].insert(LoadInst(value.type, self.kept[key]))

    def _stack_slot(self, type: Type) -> Instruction:
        slot = AllocaInst(type)
        self.entry.insert(0, slot)
        return slot

    @contextmanager
    def _reversing(self, block: Block):
        """Ask for values in the reverse of `block` for a while (then back to the current one)."""
        inside, self.block = self.block, block
        try:
            yield self._frame(block)
        finally:
            self.block = inside

    def _store_at_exits(self, loop, value: Value, slot: Instruction) -> None:
        """Where the reverse enters `loop` (the reverse of each exit), store `value` to `slot`."""
        for exit in loop.exits():
            with self._reversing(exit) as frame:
                frame.insert(StoreInst(self.primal(value), slot))

    def _count_slot(self, loop) -> Instruction:
        """The slot holding the iteration the reverse of a counted loop is in."""
        if loop not in self.count_slots:
            slot = self.count_slots[loop] = self._stack_slot(I64)
            derived = self.loops.final_count(loop)
            if derived is None:
                self._store_at_exits(loop, self.loops.count(loop), slot)
            else:
                self._store_final_count(loop, slot, *derived)
        return self.count_slots[loop]

    def _store_final_count(self, loop, slot: Instruction, start: Value, step, bound: Value) -> None:
        """In the reverse of the loop's one exit: count = (bound - start) / step - 1."""
        exit, = loop.exits()
        with self._reversing(exit) as frame:
            low, high = (start, bound) if step.value > 0 else (bound, start)
            distance = frame.insert(BinaryOperator("sub", self.primal(high), self.primal(low)))
            shift = abs(step.value).bit_length() - 1
            if shift:
                distance = frame.insert(BinaryOperator("lshr", distance,
                                                       ConstantInt(distance.type, shift)))
            if distance.type != I64:
                distance = frame.insert(CastInst("zext", distance, I64))
            last = frame.insert(BinaryOperator("add", distance, ConstantInt(I64, -1)))
            frame.insert(StoreInst(last, slot))

    def _induction(self, value: Value) -> Value | None:
        """An induction variable of a counted loop around this block: start + count * step."""
        found = self.loops.induction(value, self.block)
        if found is None:
            return None
        loop, start, step = found
        frame = self.frames[self.block]
        count = frame.insert(LoadInst(I64, self._count_slot(loop)))
        if value.type != I64:
            count = frame.insert(CastInst("trunc", count, value.type))
        offset = frame.insert(BinaryOperator("mul", count, step))
        return frame.insert(BinaryOperator("add", self.primal(start), offset))

    def _from_entry_record(self, value: Value) -> Value | None:
        """Values of the entry block run once per call: they are taped once, in a record the
        reverse sweep reads wherever it needs them (not once per iteration of every loop)."""
        if not self._in_record(value):
            return None
        if value not in self.record_offsets:
            self.record_offsets[value] = sum(tape.slot_bytes(v.type) for v in self.record)
            self.record.append(value)
        address = GetElementPtrInst(I8, self._record_base(), [ConstantInt(I64, self.record_offsets[value])],
                                    ["inbounds"])
        self.frames[self.block].insert(address)
        return self.frames[self.block].insert(LoadInst(value.type, address, align=8))

    def _record_base(self) -> Value:
        """Where the entry record lies on the tape: its offset is the last thing the forward
        sweep pushed, so the reverse sweep's entry pops it first."""
        if self.record_base is None:
            slot = CallInst(tape.SLOT_FN, GlobalRef(tape.POP), [self.tape, ConstantInt(I64, 8)])
            offset = LoadInst(I64, slot, align=8)
            data = LoadInst(PTR, self.tape, align=8)
            self.record_base = GetElementPtrInst(I8, data, [offset], ["inbounds"])
            for index, inst in enumerate((slot, offset, data, self.record_base)):
                self.entry.insert(index, inst)
        return self.record_base

    def _recomputed(self, value: Value, most_taped: int) -> Value | None:
        """Rebuild cheap arithmetic or a read-only load in this block instead of taping it,
        when that puts at most `most_taped` new values on the tape."""
        if not self._rebuildable(value):
            return None
        memo: dict = {value: 0}
        sources = self._rebuilt_from(value)
        if sum(self._tape_cost(op, memo, 1) for op in sources) > most_taped:
            return None
        operands = [self.primal(op) for op in sources]
        if isinstance(value, LoadInst):
            made = LoadInst(value.type, operands[0], align=value.align)
        elif isinstance(value, PhiInst):
            made = SelectInst(*operands)
        else:
            made = recompute.rebuild(value, operands)
        return self.frames[self.block].insert(made)

    def _rebuildable(self, value: Value) -> bool:
        return recompute.is_cheap(value) or recompute.reloadable(value, self.read_only) \
            or self._decided_phi(value) is not None

    def _decided_phi(self, value: Value) -> tuple[Value, Value, Value] | None:
        """(condition, value if true, value if false) for a phi of a block entered along the
        edge a branch's condition chose: the phi is that select."""
        if not isinstance(value, PhiInst) or value.type.is_float():
            return None
        decided = self.loops.deciding_branch(value.parent)
        if decided is None:
            return None
        condition, if_true, if_false = decided
        return condition, value.incoming_value(if_true), value.incoming_value(if_false)

    def _rebuilt_from(self, value: Value) -> list[Value]:
        decided = self._decided_phi(value) if isinstance(value, PhiInst) else None
        return list(decided) if decided is not None else list(value.operands)

    def _tape_cost(self, value: Value, memo: dict, depth: int = 0) -> int:
        """How many values rebuilding `value` would newly put on the tape (UNTAPABLE when one
        of them is not available at the end of this block: a phi's incoming value)."""
        if isinstance(value, Constant) or value in self.arg_map or value in self.popped[self.block]:
            return 0
        if self._in_record(value) or self._keeping_loop(value) is not None \
                or self.loops.induction(value, self.block) is not None:
            return 0
        if value in memo:               # shared: counted once
            return 0 if memo[value] < UNTAPABLE else UNTAPABLE
        if depth >= recompute.MAX_DEPTH or not self._rebuildable(value):
            memo[value] = 1 if self._available(value) else UNTAPABLE
            return memo[value]
        memo[value] = sum(self._tape_cost(op, memo, depth + 1) for op in self._rebuilt_from(value))
        return memo[value]

    def _available(self, value: Value) -> bool:
        """Whether `value` is defined on every path to this block (so it can be taped here)."""
        definition = getattr(value, "parent", None)
        return not isinstance(definition, Block) or self.loops.dominates(definition, self.block)

    def shadow(self, pointer: Value, user: Instruction) -> Value:
        return self.primal(self.fwd.shadow_of(pointer, user))
