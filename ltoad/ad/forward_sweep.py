"""The augmented forward sweep: the primal computation plus shadow memory and tape pushes.

`augmented_f(args..., shadows of dup args..., ptr tape)` is a clone of f in which every shadowed
pointer gets its shadow next to it (GEPs on shadows, zeroed shadow allocations, pointers loaded
from shadow memory), pointer stores and memory intrinsics are mirrored on the shadows, and calls
to active functions go to their own augmented versions. Which values the reverse sweep needs is
decided later; `insert_pushes` then saves them at the end of each block.
"""

from __future__ import annotations

from ..diagnostics import LtoadError
from ..ir import parse_function, print_function
from ..ir.function import Argument, Block, Function
from ..ir.instructions import (AllocaInst, BinaryOperator, BranchInst, CallBase, CallInst,
                               CompareInst,
                               ExtractValueInst, InsertValueInst, CastInst, GetElementPtrInst,
                               Instruction, InvokeInst, LoadInst, PhiInst, ReturnInst, SelectInst,
                               StoreInst)
from ..ir.types import I1, I8, I32, I64, PTR, VOID, FunctionType, PointerType, StructType, VectorType
from ..ir.values import (Constant, ConstantExpr, ConstantInt, GlobalRef, NullPointer, Poison,
                         Value)
from ..analysis.loops import reverse_postorder
from . import tape
from .activity import Activity
from .memory import integer_copy_kind, region_kind, type_bytes

MEMSET = "llvm.memset.p0.i64"
MEMSET_TYPE = FunctionType(VOID, (PTR, I8, I64, I1), False)
MEMSET_DECLARATION = f"declare void @{MEMSET}(ptr, i8, i64, i1 immarg)"


def zero_call(pointer: Value, size: Value) -> CallInst:
    """`memset(pointer, 0, size)` with an i64 size; the caller declares MEMSET."""
    return CallInst(MEMSET_TYPE, GlobalRef(MEMSET), [pointer, ConstantInt(I8, 0), size,
                                                     ConstantInt(I1, 0)])
MEMCPY = "llvm.memcpy.p0.p0.i64"
MEMCPY_DECLARATION = f"declare void @{MEMCPY}(ptr, ptr, i64, i1 immarg)"


def copy_call(destination: Value, source: Value, size: Value) -> CallInst:
    """`memcpy(destination, source, size)` with an i64 size; the caller declares MEMCPY."""
    return CallInst(FunctionType(VOID, (PTR, PTR, I64, I1), False), GlobalRef(MEMCPY),
                    [destination, source, size, ConstantInt(I1, 0)])


MEMORY_COPIES = ("llvm.memcpy", "llvm.memmove")
KEPT_FUNCTION_ATTRIBUTES = ("personality",)


def clone(function: Function, name: str, symbols) -> Function:
    """A fresh copy of `function` (through the printer), internal, without its attributes.

    `symbols` (the module) gives named struct types their bodies.
    """
    text = print_function(function)
    copy = parse_function(text, 0, len(text), symbols)
    copy.name = name
    copy.prefix = ["internal"]
    copy.attributes = [a for a in copy.attributes if a.startswith(KEPT_FUNCTION_ATTRIBUTES)]
    for arg in copy.args:
        arg.attrs = []
    return copy


def strip_debug_info(function: Function) -> None:
    """Drop !dbg and debug records: they describe the primal's subprogram, not this one."""
    function.metadata = [(k, v) for k, v in function.metadata if k != "dbg"]
    for instruction in function.instructions():
        instruction.metadata = [(k, v) for k, v in instruction.metadata if k != "dbg"]
        for record in instruction.debug_records:
            record.drop_operands()
        instruction.debug_records = []


def _insert_after(instruction: Instruction, new: Instruction) -> Instruction:
    block = instruction.parent
    index = block.instructions.index(instruction) + 1
    if isinstance(instruction, PhiInst):
        index = len(block.phis)
    block.insert(index, new)
    return new


class ForwardSweep:
    """Turns a clone of the primal into augmented_f; keeps the primal->shadow map."""

    def __init__(self, function: Function, activities: tuple[str, ...], activity: Activity,
                 split_names, where, global_shadows: dict[Value, Value] | None = None,
                 module=None, hints: tuple = (), with_tape: bool = True, lane: str = ""):
        self.f = function
        self.activity = activity
        self.split_names = split_names      # callable: (callee, call) -> (augmented, reverse)
        self.where = where                  # callable: instruction -> location text
        self.shadow: dict[Value, Value] = dict(global_shadows or {})
        self.original: dict[Block, list[Instruction]] = {b: list(b.instructions) for b in function.blocks}
        self.shadow_args = []
        for arg, act in zip(list(function.args), activities):
            if act in ("dup", "dupnoneed"):
                shadow = function.add_argument(Argument(arg.type,
                                                        f"{arg.name or 'arg'}.shadow{lane}"))
                self.shadow[arg] = shadow
                self.shadow_args.append(shadow)
        self.tape = function.add_argument(Argument(PTR, "tape")) if with_tape else None
        self.shadow_phis: list[tuple[PhiInst, Instruction]] = []
        self.augmented_calls: dict[Instruction, Instruction] = {}
        self.realloc_bytes: dict[Instruction, Value] = {}
        self.integer_copies: dict[Instruction, object] = {}
        # what callers know about the memory pointer arguments point to (float element types)
        self.hints = {arg: hint for arg, hint in zip(function.args, hints) if hint is not None}
        self.module = module
        self.realloc_old: dict[Instruction, Value] = {}
        self.call_info: dict[Instruction, object] = {}
        self.declarations: dict[str, str] = {}

    def lower_active_invokes(self) -> None:
        """Active calls made with `invoke` become plain calls (their unwind edge is dropped).

        Derivatives are defined on paths that do not throw; a throwing active call now leaves
        the augmented function directly instead of through its landing pad.
        """
        for block in self.f.blocks:
            invoke = block.terminator
            if isinstance(invoke, InvokeInst) and self._needs_reverse(invoke):
                self._invoke_to_call(block, invoke)

    def _needs_reverse(self, call: CallBase) -> bool:
        activity = self.activity
        name = call.called_name or ""
        return (activity.is_active_call(call) or call in activity.varied
                or (name in activity.knowledge.allocators and call in activity.shadowed))

    def _invoke_to_call(self, block: Block, invoke: InvokeInst) -> None:
        call = CallInst(invoke.function_type, invoke.callee, list(invoke.args), tail=None,
                        cc=invoke.cc, ret_attrs=invoke.ret_attrs, arg_attrs=invoke.arg_attrs,
                        fn_attrs=invoke.fn_attrs)
        normal, unwind = invoke.normal_dest, invoke.unwind_dest
        block.insert(block.instructions.index(invoke), call)
        invoke.replace_all_uses_with(call)
        for table in (self.activity.varied, self.activity.shadowed):
            if invoke in table:
                table.discard(invoke)
                table.add(call)
        for phi in unwind.phis:
            for position, (_, source) in enumerate(phi.incoming):
                if source is block:
                    phi.remove_incoming(position)
                    break
        name = invoke.name
        invoke.erase()
        call.name = name
        block.append(BranchInst([normal]))
        self.original[block] = list(block.instructions)

    def run(self) -> None:
        self.lower_active_invokes()
        for block in reverse_postorder(self.f):
            for instruction in self.original[block]:
                self.visit(instruction)
        self.finish()

    def visit(self, instruction: Instruction) -> None:
        """The shadow of one primal instruction, and what it does to shadowed memory."""
        if instruction in self.activity.shadowed and not self._is_split_call(instruction):
            made = self._make_shadow(instruction)
            if isinstance(instruction, PhiInst):
                self.shadow_phis.append((instruction, made))
        self._mirror(instruction)

    def finish(self) -> None:
        """Incoming values of the shadow phis, once every shadow exists."""
        for phi, shadow in self.shadow_phis:
            for value, block in phi.incoming:
                shadow.add_incoming(self.shadow_of(value, phi), block)

    def _is_split_call(self, inst: Instruction) -> bool:
        return isinstance(inst, CallInst) and self.activity.is_active_call(inst)


    def shadow_of(self, value: Value, user: Instruction) -> Value:
        if isinstance(value, ConstantExpr) and self.activity.points_into_shadowed(value):
            operands = [self.shadow_of(value.operands[0], user), *value.operands[1:]]
            return ConstantExpr(value.type, value.opcode, operands, value.flags, value.source_type)
        shadow = self.shadow.get(value)
        if shadow is None and value.type == I64:   # an address as an integer: a constant
            return value if isinstance(value, Constant) else ConstantInt(I64, 0)  # stays itself
        if shadow is None and isinstance(value, CastInst) and value.opcode == "inttoptr":
            return value    # an address made from a plain integer (a dangling, empty pointer)
        if shadow is None:
            if isinstance(value, Constant) or not isinstance(value.type, PointerType):
                return NullPointer(PTR)   # null, or constant data whose derivative is not kept
            raise LtoadError(f"cannot differentiate {self.where(user)}: no shadow for a pointer "
                             "it uses (mark the data inactive or pass it as enzyme_dup)")
        return shadow

    def _make_shadow(self, inst: Instruction) -> Instruction:
        if isinstance(inst, AllocaInst):
            # The reverse sweep runs after this frame is gone: stack shadows live on the heap.
            size, after = self._alloca_bytes(inst)
            self.declarations["malloc"] = "declare ptr @malloc(i64)"
            made = _insert_after(after, CallInst(FunctionType(PTR, (I64,)), GlobalRef("malloc"), [size]))
            self._zero(made, size, made)
        elif isinstance(inst, GetElementPtrInst):
            made = _insert_after(inst, GetElementPtrInst(
                inst.source_element_type, self.shadow_of(inst.pointer, inst), inst.indices, inst.flags))
        elif isinstance(inst, CastInst):
            made = _insert_after(inst, CastInst(inst.opcode, self.shadow_of(inst.operands[0], inst),
                                                inst.type))
        elif isinstance(inst, LoadInst):
            made = _insert_after(inst, LoadInst(inst.type, self.shadow_of(inst.pointer, inst),
                                                align=inst.align))
        elif isinstance(inst, SelectInst):
            a, b = (self.shadow_of(v, inst) for v in inst.operands[1:])
            made = _insert_after(inst, SelectInst(inst.condition, a, b))
        elif isinstance(inst, PhiInst):
            made = _insert_after(inst, PhiInst(inst.type))
        elif isinstance(inst, CallBase):
            made = self._shadow_allocation(inst)
        else:
            raise LtoadError(f"cannot differentiate {self.where(inst)}: "
                             f"no shadow rule for '{inst.opcode}'")
        made.name = f"{inst.name}.shadow" if inst.name else None
        self.shadow[inst] = made
        return made

    def _alloca_bytes(self, inst: AllocaInst) -> tuple[Value, Instruction]:
        """The byte size of an alloca, and the last instruction computing it."""
        element = type_bytes(inst.allocated_type)
        if isinstance(inst.count, ConstantInt):
            return ConstantInt(I64, element * inst.count.value), inst
        count = inst.count
        after: Instruction = inst
        if count.type != I64:
            count = after = _insert_after(after, CastInst("zext", count, I64))
        size = _insert_after(after, BinaryOperator("mul", count, ConstantInt(I64, element)))
        return size, size

    def _zero(self, pointer: Value, size: Value, after: Instruction) -> Instruction:
        """Insert `memset(pointer, 0, size)` after `after` (widening size to i64 first)."""
        self.declarations[MEMSET] = MEMSET_DECLARATION
        if size.type != I64:
            size = after = _insert_after(after, CastInst("zext", size, I64))
        return _insert_after(after, zero_call(pointer, size))

    def _shadow_allocation(self, call: CallBase) -> Instruction:
        allocator = self.activity.knowledge.allocators[call.called_name]
        if allocator.reallocates is not None:
            return self._shadow_reallocation(call, allocator)
        if allocator.shadow is not None:
            size = call.args[allocator.size_args[0]]
            self.declarations[allocator.shadow] = f"declare ptr @{allocator.shadow}(i64)"
            made = _insert_after(call, CallInst(FunctionType(PTR, (I64,)),
                                                GlobalRef(allocator.shadow), [size]))
            self._zero(made, size, made)
            return made
        made = _insert_after(call, CallInst(call.function_type, call.callee, list(call.args)))
        if not allocator.zeroed:
            self._zero(made, call.args[allocator.size_args[0]], made)
        return made

    def _shadow_reallocation(self, call: CallBase, allocator) -> Instruction:
        """`q = realloc(p, n)`: the shadow of q is fresh zeroed memory into which the old
        shadow's min(old, n) bytes are copied (pointer shadows; float adjoints are still zero).
        The old shadow stays alive for the reverse sweep, which moves the adjoints of those
        bytes back into it (the count is kept in `realloc_bytes`)."""
        size = call.args[allocator.size_args[0]]
        old_shadow = self.shadow_of(call.args[allocator.reallocates], call)
        self.declarations["malloc"] = "declare ptr @malloc(i64)"
        self.declarations["malloc_usable_size"] = "declare i64 @malloc_usable_size(ptr)"
        made = _insert_after(call, CallInst(FunctionType(PTR, (I64,)), GlobalRef("malloc"), [size]))
        zero = self._zero(made, size, made)
        usable = _insert_after(zero, CallInst(FunctionType(I64, (PTR,)),
                                              GlobalRef("malloc_usable_size"), [old_shadow]))
        less = _insert_after(usable, CompareInst("icmp", "ult", usable, size))
        count = self.realloc_bytes[call] = _insert_after(less, SelectInst(less, usable, size))
        self.declarations[MEMCPY] = MEMCPY_DECLARATION
        _insert_after(count, copy_call(made, old_shadow, count))   # pointer shadows move along
        self.realloc_old[call] = old_shadow
        return made

    def integer_copy(self, store: Instruction):
        """For `store (load iN p), q` between shadowed memories: what it copies (a Region)."""
        if not isinstance(store, StoreInst) or not isinstance(store.value, LoadInst):
            return None
        load = store.value
        if not load.type.is_integer() or isinstance(load.type, VectorType):
            return None
        points = self.activity.points_into_shadowed
        if not (points(store.pointer) and points(load.pointer)):
            return None
        if store not in self.integer_copies:
            self.integer_copies[store] = integer_copy_kind(self.module, self.f, load, store,
                                                           self.hints)
        return self.integer_copies[store]

    def _mirror(self, inst: Instruction) -> None:
        """Mirror on the shadows what `inst` does to shadowed memory."""
        copy = self.integer_copy(inst)
        if copy is not None and copy.kind == "pointers":   # pointer bits: their shadows follow
            shadow_value = _insert_after(inst, LoadInst(inst.value.type,
                                                        self.shadow_of(inst.value.pointer, inst)))
            _insert_after(shadow_value, StoreInst(shadow_value, self.shadow_of(inst.pointer, inst)))
            return
        if isinstance(inst, StoreInst) and self.activity.points_into_shadowed(inst.pointer) \
                and (isinstance(inst.value.type, PointerType) or inst.value in self.activity.shadowed):
            shadow_value = self.shadow.get(inst.value, NullPointer(PTR)) \
                if isinstance(inst.value.type, PointerType) else self.shadow_of(inst.value, inst)
            _insert_after(inst, StoreInst(shadow_value, self.shadow_of(inst.pointer, inst),
                                          align=inst.align))
        elif isinstance(inst, CallInst):
            self._mirror_call(inst)

    def _mirror_call(self, call: CallInst) -> None:
        """Memory intrinsics on shadowed memory: shadows of pointers must follow the data
        forward; float shadows hold adjoints, which only the reverse sweep moves."""
        name = call.called_name or ""
        destination_shadowed = bool(call.args) and self.activity.points_into_shadowed(call.args[0])
        if name.startswith(("llvm.memcpy", "llvm.memmove", "llvm.memset")) and destination_shadowed:
            pointers = list(call.args[:1 + name.startswith(MEMORY_COPIES)])
            if region_kind(self.f, pointers, hints=self.hints).kind == "floats":
                return
        if not self._mirror_memory_intrinsic(call) and self.activity.is_active_call(call):
            self._augment_call(call)

    def _mirror_memory_intrinsic(self, call: CallInst) -> bool:
        """memcpy/memmove/memset into shadowed memory, done on the shadows too (from the
        source's shadow, or zeros); False when `call` is none of these."""
        name = call.called_name or ""
        if not call.args or not self.activity.points_into_shadowed(call.args[0]):
            return False
        if name.startswith(MEMORY_COPIES):
            source = call.args[1]
            if self.activity.points_into_shadowed(source):
                args = [self.shadow_of(call.args[0], call), self.shadow_of(source, call), *call.args[2:]]
                _insert_after(call, CallInst(call.function_type, call.callee, args))
            else:
                self._zero(self.shadow_of(call.args[0], call), call.args[2], call)
            return True
        if name.startswith("llvm.memset"):
            self._zero(self.shadow_of(call.args[0], call), call.args[2], call)
            return True
        return False

    def _augment_call(self, call: CallInst) -> None:
        info = self.split_names(call, self.activity)
        args = list(call.args) + [self.shadow_of(a, call) for a in call.args
                                  if self.activity.points_into_shadowed(a)]
        args.append(self.tape)
        returns = StructType((call.type, PTR)) if info.shadow_return else call.type
        function_type = FunctionType(returns, tuple(a.type for a in args), False)
        block = call.parent

        def insert(instruction: Instruction) -> Instruction:
            block.insert(block.instructions.index(call), instruction)
            return instruction

        replacement = insert(CallInst(function_type, info.callee("augmented", call.callee, insert), args))
        result: Value = replacement
        if info.shadow_return:
            result = _insert_after(replacement, ExtractValueInst(replacement, [0]))
            self.shadow[result] = _insert_after(result, ExtractValueInst(replacement, [1]))
            self.activity.shadowed.add(result)
        call.replace_all_uses_with(result)
        name = call.name
        index = self.original[block].index(call)
        self.original[block][index] = replacement
        self._retarget(call, replacement)
        self.call_info[replacement] = (list(call.args), info, call.callee)
        call.erase()
        result.name = name

    def _retarget(self, old: Instruction, new: Instruction) -> None:
        """Analyses were computed on `old`; make `new` inherit them."""
        for table in (self.activity.varied, self.activity.shadowed):
            if old in table:
                table.discard(old)
                table.add(new)
        self.augmented_calls[new] = old

    def return_shadows(self) -> None:
        """Make every `ret p` return `{ p, shadow of p }` (pointer results of split calls)."""
        self.pair_returns_with(PTR, lambda value, ret: self.shadow.get(value, NullPointer(PTR)))

    def pair_returns_with(self, second_type, second_of) -> None:
        """Make every `ret v` return `{ v, second_of(v, ret) }`."""
        returns = StructType((self.f.return_type, second_type))
        for block in self.return_blocks():
            ret = block.terminator
            first = InsertValueInst(Poison(returns), ret.value, [0])
            pair = InsertValueInst(first, second_of(ret.value, ret), [1])
            index = block.instructions.index(ret)
            block.insert(index, first)
            block.insert(index + 1, pair)
            ret.set_operand(0, pair)
        self.f.return_type = returns

    # ---- after the reverse sweep decided what it needs ----------------------------------

    def insert_pushes(self, needed: dict[Block, list[Value]]) -> None:
        for block, values in needed.items():
            if values:
                tape.insert_frame_push(block, block.instructions.index(block.terminator),
                                       self.tape, values)

    def push_entry_record(self, values: list[Value]) -> Value | None:
        """Push the entry record at the end of the entry block (after its own frame); return
        where it lies: its offset from the tape's start (the tape may move as it grows)."""
        if not values:
            return None
        entry = self.f.entry
        index = entry.instructions.index(entry.terminator)
        # the typed field address tells a differentiating typer the offset is an integer
        top = GetElementPtrInst(tape.TAPE_TYPE, self.tape, [ConstantInt(I64, 0), ConstantInt(I32, 1)],
                                ["inbounds"])
        offset = LoadInst(I64, top, align=8)
        entry.insert(index, top)
        entry.insert(index + 1, offset)
        tape.insert_frame_push(entry, index + 2, self.tape, values)
        return offset

    def push_record_offset(self, offset: Value | None) -> None:
        """At every return, last of all: the entry record's offset (the reverse pops it first)."""
        if offset is None:
            return
        for block in self.return_blocks():
            tape.insert_frame_push(block, block.instructions.index(block.terminator), self.tape,
                                   [offset])

    def record_predecessors(self, block: Block) -> PhiInst:
        """Which predecessor control came from, as a value the reverse sweep asks for (it
        travels in the block's tape frame and tells the reverse which edge to go back along)."""
        predecessors = block.predecessors
        index_phi = PhiInst(I64, [(ConstantInt(I64, i), p) for i, p in enumerate(predecessors)])
        block.insert(len(block.phis), index_phi)
        return index_phi

    def record_returns(self, blocks: list[Block]) -> None:
        """Push which return was taken (after everything else the block pushes)."""
        for number, block in enumerate(blocks):
            index = block.instructions.index(block.terminator)
            tape.insert_frame_push(block, index, self.tape, [ConstantInt(I64, number)])

    def return_blocks(self) -> list[Block]:
        return [b for b in self.f.blocks if isinstance(b.terminator, ReturnInst)]
