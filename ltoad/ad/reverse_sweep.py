"""The reverse sweep: `reverse_f(args..., shadows..., [d_ret], ptr tape)` -> adjoints of `out` args.

One reverse block per primal block, visited in reverse CFG order: a counted loop's header goes
back around until its count is zero, a block below a two-way branch goes back along the edge
the branch's condition chose, and any other block with several predecessors pops which one was
taken (reverse_control.py). Inside a block, instructions are visited last to first and each
applies its adjoint rule. Adjoints of SSA values live in stack slots (zeroed at entry, reset when
their definition is reached, so loops work; mem2reg turns them into registers). Every primal or
shadow value a rule needs is requested per block and comes from the cheapest place
reverse_values.py finds (rebuilt, the entry record, a loop's kept slot, or the block's frame on
the tape).
"""

from __future__ import annotations

from ..diagnostics import LtoadError
from ..ir.builder import Builder
from ..ir.function import Argument, Block, Function
from ..ir.instructions import (AllocaInst, BinaryOperator, CallInst, CastInst, ExtractElementInst,
                               ExtractValueInst, InsertValueInst,
                               InsertElementInst, Instruction, LoadInst, PhiInst, ReturnInst,
                               SelectInst, ShuffleVectorInst, StoreInst, UnaryOperator)
from ..ir.types import (I32, I64, PTR, VOID, ArrayType, FunctionType, NamedStructType,
                        StructType, Type)
from ..ir.values import ConstantInt, GlobalRef, Poison, Value
from . import recompute, reverse_control, rules, special_rules, tape
from . import expr
from .expr import Expr
from .formulas import FormulaEmitter, zero_of
from .activity import reinterpreted_load
from .forward_sweep import MEMCPY, MEMCPY_DECLARATION, MEMSET, MEMSET_DECLARATION, copy_call, zero_call
from .memory import NO_FLOATS, contains_float, member_types, region_kind, type_bytes
from .reverse_values import ReverseValues

CAST_TRANSPOSE = {"fpext": "fptrunc", "fptrunc": "fpext"}


# Adjoint sums carry `nsz`: the sign of a zero derivative means nothing, and with it the
# optimizer drops `0.0 + d` where a reset slot or shadow is added to.
ACCUMULATE_FLAGS = ("nsz",)


def accumulate(b: Builder, current: Value, amount: Value) -> Value:
    """current + amount, member by member for aggregates (non-float members kept)."""
    type = current.type
    if not isinstance(type, (StructType, NamedStructType, ArrayType)):
        return b.fadd(current, amount, ACCUMULATE_FLAGS)
    for index, member in enumerate(member_types(type)):
        if contains_float(member):
            total = accumulate(b, b.extractvalue(current, [index]), b.extractvalue(amount, [index]))
            current = b.insertvalue(current, total, [index])
    return current


def out_return_type(types: list[Type]) -> Type:
    if not types:
        return VOID
    return types[0] if len(types) == 1 else StructType(tuple(types))


class ReverseSweep(ReverseValues):
    def __init__(self, forward, name: str, activities: tuple[str, ...], active_return: bool,
                 top_level: bool = False):
        self.fwd = forward
        self.activity = forward.activity
        aug = forward.f
        self.primal_args = aug.args[:len(activities)]
        self.out_args = [a for a, act in zip(self.primal_args, activities) if act == "out"
                         and a.type.is_float()]
        self.rev = Function(name, out_return_type([a.type for a in self.out_args]), prefix=["internal"])
        self.arg_map: dict[Value, Value] = {}
        for arg in [*self.primal_args, *forward.shadow_args]:
            self.arg_map[arg] = self.rev.add_argument(Argument(arg.type, arg.name))
        self.d_return = None
        if active_return:
            self.d_return = self.rev.add_argument(Argument(aug.return_type, "d.return"))
        self.tape = self.rev.add_argument(Argument(PTR, "tape"))
        reverse_control.dedicate_exits(aug, forward.original)
        self.loops = reverse_control.ReverseControl(aug)
        self.kept: dict[tuple[Value, object], Instruction] = {}   # (value, loop) -> stack slot
        self.count_slots: dict[object, Instruction] = {}          # loop -> its count's slot
        self.entry = self.rev.add_block("entry")
        self.blocks = {b: self.rev.add_block(f"reverse.{b.name or i}") for i, b in enumerate(aug.blocks)}
        self.slots: dict[Value, Instruction] = {}
        self.needed: dict[Block, list[Value]] = {b: [] for b in aug.blocks}
        self.popped: dict[Block, dict[Value, Value]] = {b: {} for b in aug.blocks}
        self.frames: dict[Block, tape.PoppedFrame] = {}
        self.record: list[Value] = []                 # entry-block values taped once per call
        self.record_offsets: dict[Value, int] = {}
        self.record_base: Value | None = None
        # Primal arguments nothing writes until this reverse sweep runs (top-level only).
        self.read_only: set[Value] = set()
        if top_level:
            written = recompute.written_objects(aug, lambda n: rules.lookup(n) is not None)
            self.read_only = {a for a in self.primal_args if a not in written}
        self.phi_adjoints: dict[PhiInst, Value] = {}
        self.declarations: dict[str, str] = {}
        self.block: Block | None = None     # the primal block being reversed
        self.numbered_returns: list[Block] = []  # when several: the forward sweep pushes which

    # ---- adjoint slots -------------------------------------------------------------------

    def _slot(self, value: Value) -> Instruction:
        slot = self.slots.get(value)
        if slot is None:
            b = Builder(self.entry)
            b.index = 2 * len(self.slots)
            slot = self.slots[value] = b.alloca(value.type)
            b.store(zero_of(value.type), slot)
        return slot

    def is_active(self, value: Value) -> bool:
        return value in self.activity.varied

    def add(self, b: Builder, value: Value, amount: Value) -> None:
        """d_value += amount (nothing for constants and inactive values)."""
        if not self.is_active(value):
            return
        slot = self._slot(value)
        b.store(accumulate(b, b.load(value.type, slot), amount), slot)

    def take(self, b: Builder, value: Value) -> Value:
        """Read d_value and reset it to zero."""
        slot = self._slot(value)
        amount = b.load(value.type, slot)
        b.store(zero_of(value.type), slot)
        return amount

    # ---- driving ---------------------------------------------------------------------------

    def run_sweep(self) -> "ReverseSweep":
        for block in self.fwd.f.blocks:
            self._reverse_block(block)
        for frame in self.frames.values():
            frame.finish()
        if self.record:      # the record lies above the entry block's frame: popped first
            size = sum(tape.slot_bytes(v.type) for v in self.record)
            self.blocks[self.fwd.f.entry].insert(0, CallInst(
                tape.SLOT_FN, GlobalRef(tape.POP), [self.tape, ConstantInt(I64, size)]))
        self._finish_entry()
        return self

    def _reverse_block(self, block: Block) -> None:
        self.block = block
        b = Builder(self.blocks[block])
        terminator = block.terminator
        if isinstance(terminator, ReturnInst) and self.d_return is not None and terminator.value:
            self.add(b, terminator.value, self.d_return)
        for instruction in reversed(self.fwd.original[block]):
            if not instruction.is_terminator:
                self.visit(b, instruction)
        self._leave_block(b, block)

    def _leave_block(self, b: Builder, block: Block) -> None:
        if block is self.fwd.f.blocks[0]:
            self._return_outs(b)
            return
        predecessors = block.predecessors
        if not predecessors:
            b.unreachable()
            return
        if len(predecessors) == 1:
            self._edge(b, block, predecessors[0])
            return
        loop = self.loops.counted(block)
        if loop is not None:
            self._leave_counted_header(b, block, loop)
            return
        decided = self.loops.deciding_branch(block)
        if decided is not None:
            condition, if_true, if_false = decided
            self._leave_along(b, block, self.primal(condition), if_true, if_false)
            return
        index = self.primal(self.fwd.record_predecessors(block))
        edges = []
        for number, predecessor in enumerate(predecessors):
            edge = self.rev.add_block(f"{b.block.name}.from.{number}")
            self._edge(Builder(edge), block, predecessor)
            edges.append((ConstantInt(I64, number), edge))
        b.switch(index, edges[0][1], edges[1:])

    def _leave_counted_header(self, b: Builder, header: Block, loop) -> None:
        """Back to the latch while the count is not zero, then out along the entry edge."""
        slot = self._count_slot(loop)
        count = b.load(I64, slot)
        b.store(b.binary("sub", count, ConstantInt(I64, 1)), slot)
        first = b.icmp("eq", count, ConstantInt(I64, 0))
        self._leave_along(b, header, first, loop.entries()[0], loop.latches[0])

    def _leave_along(self, b: Builder, block: Block, condition: Value, if_true: Block,
                     if_false: Block) -> None:
        """Back along the edge from `if_true` when `condition` holds, else from `if_false`."""
        edges = [self.rev.add_block(f"{b.block.name}.from.{p.name or 'block'}") for p in (if_true, if_false)]
        self._edge(Builder(edges[0]), block, if_true)
        self._edge(Builder(edges[1]), block, if_false)
        b.cond_br(condition, *edges)

    def _edge(self, b: Builder, block: Block, predecessor: Block) -> None:
        for phi in block.phis:
            if phi in self.phi_adjoints:
                incoming = phi.incoming_value(predecessor)
                self.add(b, incoming, self.phi_adjoints[phi])
        b.br(self.blocks[predecessor])

    def _return_outs(self, b: Builder) -> None:
        values = [b.load(a.type, self._slot(a)) for a in self.out_args]
        if not values:
            b.ret()
        elif len(values) == 1:
            b.ret(values[0])
        else:
            aggregate: Value = Poison(self.rev.return_type)
            for index, value in enumerate(values):
                aggregate = b.insertvalue(aggregate, value, [index])
            b.ret(aggregate)

    def _finish_entry(self) -> None:
        b = Builder(self.entry)
        returns = self.fwd.return_blocks()
        if not returns:
            b.unreachable()
        elif len(returns) == 1:
            b.br(self.blocks[returns[0]])
        else:
            self.numbered_returns = returns
            index, _ = tape.insert_pop(self.entry, len(self.entry.instructions), self.tape, I64)
            cases = [(ConstantInt(I64, n), self.blocks[blk]) for n, blk in enumerate(returns)]
            b.switch(index, cases[0][1], cases[1:])

    # ---- adjoint rules -------------------------------------------------------------------

    def visit(self, b: Builder, inst: Instruction) -> None:
        if isinstance(inst, PhiInst):
            if self.is_active(inst):
                self.phi_adjoints[inst] = self.take(b, inst)
            return
        if isinstance(inst, StoreInst):
            self._store(b, inst)
            return
        if isinstance(inst, AllocaInst) and inst in self.activity.shadowed:
            self._free(b, "free", self.shadow(inst, inst))
            return
        if isinstance(inst, CallInst) and not self.is_active(inst):
            self._inactive_result_call(b, inst)
            return
        if self.is_active(inst):
            self._active(b, inst, self.take(b, inst))

    def _active(self, b: Builder, inst: Instruction, dy: Value) -> None:
        """The adjoint rule of an active value whose adjoint is `dy`."""
        if isinstance(inst, (BinaryOperator, UnaryOperator)):
            self._rule(b, inst, rules.lookup(inst.opcode), list(inst.operands), dy)
        elif isinstance(inst, CallInst):
            self._call(b, inst, dy)
        elif isinstance(inst, (LoadInst, CastInst)) and self._memory_read(b, inst, dy):
            pass
        elif isinstance(inst, CastInst) and inst.opcode in CAST_TRANSPOSE:
            operand = inst.operands[0]
            self.add(b, operand, b.cast(CAST_TRANSPOSE[inst.opcode], dy, operand.type))
        elif isinstance(inst, SelectInst):
            condition = self.primal(inst.condition)
            zero = zero_of(inst.type)
            self.add(b, inst.operands[1], b.select(condition, dy, zero))
            self.add(b, inst.operands[2], b.select(condition, zero, dy))
        elif isinstance(inst, (ExtractValueInst, InsertValueInst)):
            self._aggregate(b, inst, dy)
        elif isinstance(inst, (ExtractElementInst, InsertElementInst, ShuffleVectorInst)):
            self._vector(b, inst, dy)
        elif inst.opcode == "freeze":
            self.add(b, inst.operands[0], dy)
        else:
            raise LtoadError(f"cannot differentiate {self.fwd.where(inst)}: "
                             f"no derivative rule for '{inst.opcode}'")

    def _memory_read(self, b: Builder, inst: Instruction, dy: Value) -> bool:
        """`*p' += dy` for a load (or float bits read through an integer load)."""
        load = inst if isinstance(inst, LoadInst) else reinterpreted_load(inst)
        if load is None:
            return False
        slot = self.shadow(load.pointer, load)
        b.store(accumulate(b, b.load(inst.type, slot, load.align), dy), slot, load.align)
        return True

    def _aggregate(self, b: Builder, inst: Instruction, dy: Value) -> None:
        if isinstance(inst, ExtractValueInst):
            aggregate = inst.aggregate
            self.add(b, aggregate, b.insertvalue(zero_of(aggregate.type), dy, inst.indices))
        else:
            self.add(b, inst.value, b.extractvalue(dy, inst.indices))
            self.add(b, inst.aggregate, b.insertvalue(dy, zero_of(inst.value.type), inst.indices))

    def _store(self, b: Builder, inst: StoreInst) -> None:
        copy = self.fwd.integer_copy(inst)
        if copy is not None:
            self._integer_copy(b, inst, copy)
            return
        value = inst.value
        if isinstance(value, CastInst) and value.opcode == "bitcast" and value.operands[0].type.is_float():
            value = value.operands[0]                   # store (bitcast double to i64), p
        # Unshadowed destinations were vetted before generation (Activity.stores_needing_shadow):
        # what remains are inactive globals, whose derivative is dropped on purpose.
        if not contains_float(value.type) or not self.activity.points_into_shadowed(inst.pointer):
            return
        slot = self.shadow(inst.pointer, inst)
        old = b.load(value.type, slot, inst.align)
        b.store(zero_of(value.type), slot, inst.align)
        self.add(b, value, old)

    def _integer_copy(self, b: Builder, store: StoreInst, region) -> None:
        """An integer load/store pair moving float bits: adjoints move back like a float copy."""
        if region.kind in NO_FLOATS:
            return
        if region.kind != "floats":
            raise LtoadError(f"cannot differentiate {self.fwd.where(store)}: an integer copy of "
                             "memory whose type ltoad cannot tell (floats or not?); copy it as "
                             "double, or mark the data inactive")
        load = store.value
        target, source = self.shadow(store.pointer, store), self.shadow(load.pointer, load)
        moved = b.load(region.element, target, store.align)
        b.store(zero_of(region.element), target, store.align)
        b.store(accumulate(b, b.load(region.element, source, load.align), moved), source,
                load.align)

    def _rule(self, b: Builder, inst: Instruction, rule, operands: list[Value], dy: Value) -> None:
        if rule is None or rule.special:
            name = getattr(inst, "called_name", None) or inst.opcode
            raise LtoadError(f"cannot differentiate {self.fwd.where(inst)}: "
                             f"no derivative rule for '{name}'")
        emitter = FormulaEmitter(b, inst.type)
        env: dict[str, Value] = {}
        named = {"y": inst, **{f"x{i}": op for i, op in enumerate(operands)}}
        for index, partial in enumerate(rule.partials):
            if partial is None or not self.is_active(operands[index]):
                continue
            partial = self._reuse_primal_calls(partial, inst, named)
            for variable in partial.variables() - env.keys():
                env[variable] = self.primal(named[variable])
            self.add(b, operands[index], self._times(b, emitter, partial, env, dy))
        self.declarations.update(emitter.declarations)

    def _reuse_primal_calls(self, partial: Expr, inst: Instruction, named: dict) -> Expr:
        """Replace `f(x_i)` in a formula by a call to f on the same operand that the primal
        block already makes (sin x needs cos x, which the program often computes next to it):
        a taped value instead of a second libm call in the reverse sweep."""
        if partial.op in expr.FUNCTIONS and partial.args \
                and all(a.op == "var" and a.value != "y" for a in partial.args):
            operands = [named[a.value] for a in partial.args]
            for candidate in inst.parent.instructions:
                if isinstance(candidate, CallInst) and list(candidate.args) == operands \
                        and (rule := rules.lookup(candidate.called_name or "")) is not None \
                        and rule.name == partial.op and candidate.type == inst.type:
                    name = f"c{len(named)}"
                    named[name] = candidate
                    return Expr("var", value=name)
        if not partial.args:
            return partial
        return Expr(partial.op, tuple(self._reuse_primal_calls(a, inst, named) for a in partial.args),
                    partial.value)

    @staticmethod
    def _times(b: Builder, emitter: FormulaEmitter, partial: Expr, env, dy: Value) -> Value:
        if partial.op == "num" and partial.value == 1.0:
            return dy
        if partial.op == "num" and partial.value == -1.0:
            return b.fneg(dy)
        return b.fmul(dy, emitter.emit(partial, env))

    def _call(self, b: Builder, call: CallInst, dy: Value) -> None:
        if call in self.fwd.augmented_calls:
            self._reverse_call(b, call, dy)
            return
        rule = rules.lookup(call.called_name or "")
        if rule is not None and rule.special:
            special_rules.HANDLERS[rule.special](self, b, call, dy)
            return
        self._rule(b, call, rule, list(call.args), dy)

    def _inactive_result_call(self, b: Builder, call: CallInst) -> None:
        name = call.called_name or ""
        rule = rules.lookup(name)
        if call in self.fwd.augmented_calls:
            self._reverse_call(b, call, None)
        elif rule is not None and rule.special and self.activity.touches_active_data(call):
            special_rules.HANDLERS[rule.special](self, b, call, None)
        elif name.startswith(("llvm.memcpy", "llvm.memmove")) and self.activity.points_into_shadowed(call.args[0]):
            self._reverse_copy(b, call)
        elif name.startswith("llvm.memset") and self.activity.points_into_shadowed(call.args[0]):
            self._zero_shadow(b, call, call.args[0], call.args[2])
        elif name in self.activity.knowledge.allocators and call in self.activity.shadowed:
            if call in self.fwd.realloc_bytes:
                self._reverse_reallocation(b, call)
            self._free(b, self.activity.knowledge.allocators[name].free, self.shadow(call, call))

    def _reverse_reallocation(self, b: Builder, call: CallInst) -> None:
        """Adjoints of the bytes realloc carried over go back to the old shadow."""
        region = region_kind(self.fwd.f, [call, call.args[0]], hints=self.fwd.hints)
        if region.kind in NO_FLOATS:
            return
        if region.kind == "unknown":
            # The old shadow's float adjoints are zero here (the old memory is dead after the
            # realloc) and its pointer shadows equal the copied ones: a byte copy adds.
            self.declarations[MEMCPY] = MEMCPY_DECLARATION
            b.insert(copy_call(self.primal(self.fwd.realloc_old[call]), self.shadow(call, call),
                               self.primal(self.fwd.realloc_bytes[call])))
            return
        self._copy_adjoint(b, region.element, self.shadow(call, call),
                           self.primal(self.fwd.realloc_old[call]),
                           self.primal(self.fwd.realloc_bytes[call]))

    def _free(self, b: Builder, function: str, pointer: Value) -> None:
        self.declarations[function] = f"declare void @{function}(ptr)"
        b.call(GlobalRef(function), [pointer], FunctionType(VOID, (PTR,), False))

    def _zero_shadow(self, b: Builder, call: CallInst, pointer: Value, size: Value) -> None:
        size = self.primal(size)
        if size.type != I64:
            size = b.cast("zext", size, I64)
        self.declarations[MEMSET] = MEMSET_DECLARATION
        b.insert(zero_call(self.shadow(pointer, call), size))

    def _reverse_copy(self, b: Builder, call: CallInst) -> None:
        """d_src[i] += d_dst[i]; d_dst[i] = 0 over the float elements of the copied bytes."""
        destination, source, size = call.args[0], call.args[1], call.args[2]
        if not self.activity.points_into_shadowed(source):      # constant data: nothing flows back
            self._zero_shadow(b, call, destination, size)
            return
        region = region_kind(self.fwd.f, [destination, source], hints=self.fwd.hints)
        if region.kind in NO_FLOATS:
            return
        if region.kind == "unknown":
            raise LtoadError(f"cannot differentiate {self.fwd.where(call)}: the copied memory "
                             "is not only floating point (or its type is unknown)")
        element = region.element
        size = self.primal(size)
        if size.type != I64:
            size = b.cast("zext", size, I64)
        self._copy_adjoint(b, element, self.shadow(destination, call), self.shadow(source, call), size)

    def _copy_adjoint(self, b: Builder, element: Type, destination: Value, source: Value,
                      size: Value) -> None:
        """source'[i] += destination'[i]; destination'[i] = 0 for the `size` bytes."""
        helper = f"__ltoad_copy_adjoint.{element}"
        self.declarations[helper] = copy_adjoint_runtime(element)
        b.call(GlobalRef(helper), [destination, source, size],
               FunctionType(VOID, (PTR, PTR, I64), False))

    def _reverse_call(self, b: Builder, call: CallInst, dy: Value | None) -> None:
        call_args, info, target = self.fwd.call_info[call]
        args = [self.primal(a) for a in call_args]
        args += [self.shadow(a, call) for a in call_args if self.activity.points_into_shadowed(a)]
        if info.active_return:
            args.append(dy)
        args.append(self.tape)
        outs = [a for a, act in zip(call_args, info.activities) if act == "out"]
        callee = info.callee("reverse", self.primal(target), b.insert)
        result = b.call(callee, args,
                        FunctionType(out_return_type([a.type for a in outs]), tuple(a.type for a in args)))
        for index, arg in enumerate(outs):
            self.add(b, arg, result if len(outs) == 1 else b.extractvalue(result, [index]))

    def _vector(self, b: Builder, inst: Instruction, dy: Value) -> None:
        if isinstance(inst, ExtractElementInst):
            vector, index = inst.operands
            self.add(b, vector, b.insertelement(zero_of(vector.type), dy, self.primal(index)))
        elif isinstance(inst, InsertElementInst):
            vector, scalar, index = inst.operands
            lane = self.primal(index)
            self.add(b, scalar, b.extractelement(dy, lane))
            self.add(b, vector, b.insertelement(dy, zero_of(scalar.type), lane))
        else:
            self._shuffle(b, inst, dy)

    def _shuffle(self, b: Builder, inst: ShuffleVectorInst, dy: Value) -> None:
        first, second = inst.operands
        width = first.type.count
        for lane, source in enumerate(inst.mask):
            if source < 0:
                continue
            target = first if source < width else second
            piece = b.extractelement(dy, ConstantInt(I32, lane))
            contribution = b.insertelement(zero_of(target.type), piece,
                                           ConstantInt(I32, source % width))
            self.add(b, target, contribution)


def copy_adjoint_runtime(element: Type) -> str:
    """IR of `__ltoad_copy_adjoint.T(dst', src', bytes)`: src'[i] += dst'[i]; dst'[i] = 0."""
    size = type_bytes(element)
    return f"""define internal void @"__ltoad_copy_adjoint.{element}"(ptr %d, ptr %s, i64 %bytes) {{
entry:
  %n = udiv i64 %bytes, {size}
  %empty = icmp eq i64 %n, 0
  br i1 %empty, label %done, label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %next, %loop ]
  %dp = getelementptr inbounds {element}, ptr %d, i64 %i
  %sp = getelementptr inbounds {element}, ptr %s, i64 %i
  %dv = load {element}, ptr %dp
  %sv = load {element}, ptr %sp
  %sum = fadd {element} %sv, %dv
  store {element} %sum, ptr %sp
  store {element} 0.0, ptr %dp
  %next = add i64 %i, 1
  %more = icmp ult i64 %next, %n
  br i1 %more, label %loop, label %done

done:
  ret void
}}"""
