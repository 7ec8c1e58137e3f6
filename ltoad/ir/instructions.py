"""Instructions: one class per family, each with typed accessors for its operands and fields.

Operands (values and successor blocks) are kept as `User` operands, so use lists see every
reference. Everything else an instruction carries in the text (flags, predicate, alignment,
attributes, metadata attachments, debug records) is a plain field.
"""

from ltoad.ir.types import (
    I1,
    I32,
    LABEL,
    TOKEN,
    VOID,
    FunctionType,
    IRTypeError,
    PointerType,
    StructType,
    Type,
    VectorType,
    member_type,
)
from ltoad.ir.values import ConstantInt, GlobalRef, User, Value, bool_type_for

FAST_MATH_FLAGS = frozenset("fast nnan ninf nsz arcp contract afn reassoc".split())
BINARY_OPCODES = frozenset(
    "add fadd sub fsub mul fmul udiv sdiv fdiv urem srem frem shl lshr ashr and or xor".split()
)


class DebugRecord(User):
    """`#dbg_value(...)` and friends, attached before an instruction.

    `items` lists the record's arguments: a `str` is metadata text kept as written, an `int` is
    the index of a value operand (printed `ty v`), a `tuple` of such indices is a
    `!DIArgList(...)`.
    """

    debug_user = True

    def __init__(self, kind: str, items: list, values=()):
        super().__init__(VOID, values)
        self.kind = kind
        self.items = items


class Instruction(User):
    """Base of instructions: `opcode`, `flags`, `metadata` attachments, `debug_records`."""

    is_terminator = False

    def __init__(self, opcode: str, type: Type, operands=(), name=None, flags=()):
        super().__init__(type, operands, name)
        self.opcode = opcode
        self.flags: list[str] = list(flags)
        self.parent = None
        self.metadata: list[tuple[str, str]] = []
        self.debug_records: list[DebugRecord] = []

    def get_metadata(self, kind: str) -> str | None:
        """The text of attachment `!kind` (e.g. "dbg" -> "!12"), or None."""
        for name, text in self.metadata:
            if name == kind:
                return text
        return None

    def set_metadata(self, kind: str, text: str | None) -> None:
        """Attach, replace or (with None) remove attachment `!kind`."""
        kept = [(name, value) for name, value in self.metadata if name != kind]
        self.metadata = kept + ([(kind, text)] if text is not None else [])

    @property
    def successors(self) -> list[Value]:
        if not self.is_terminator:
            return []
        return [op for op in self._operands if op.type == LABEL]

    def remove_from_parent(self) -> None:
        """Take this instruction out of its block, keeping its operands (to insert it elsewhere)."""
        if self.parent is not None:
            self.parent.instructions.remove(self)
            self.parent = None

    def erase(self) -> None:
        """Remove this unused instruction from its block and drop its operands."""
        if self.has_uses():
            raise IRTypeError(f"cannot erase {self.opcode}: it still has users")
        self.remove_from_parent()
        for record in self.debug_records:
            record.drop_operands()
        self.drop_operands()


class BinaryOperator(Instruction):
    def __init__(self, opcode: str, lhs: Value, rhs: Value, flags=(), name=None):
        if lhs.type != rhs.type:
            raise IRTypeError(f"{opcode} operands differ in type: {lhs.type} and {rhs.type}")
        super().__init__(opcode, lhs.type, [lhs, rhs], name, flags)

    @property
    def lhs(self) -> Value:
        return self.operand(0)

    @property
    def rhs(self) -> Value:
        return self.operand(1)


class UnaryOperator(Instruction):
    """`fneg`."""

    def __init__(self, opcode: str, operand: Value, flags=(), name=None):
        super().__init__(opcode, operand.type, [operand], name, flags)


class CompareInst(Instruction):
    """`icmp` / `fcmp` with a `predicate` such as "slt" or "oeq"."""

    def __init__(self, opcode: str, predicate: str, lhs: Value, rhs: Value, flags=(), name=None):
        if lhs.type != rhs.type:
            raise IRTypeError(f"{opcode} operands differ in type: {lhs.type} and {rhs.type}")
        super().__init__(opcode, bool_type_for(lhs.type), [lhs, rhs], name, flags)
        self.predicate = predicate

    @property
    def lhs(self) -> Value:
        return self.operand(0)

    @property
    def rhs(self) -> Value:
        return self.operand(1)


class CastInst(Instruction):
    def __init__(self, opcode: str, value: Value, dest_type: Type, flags=(), name=None):
        super().__init__(opcode, dest_type, [value], name, flags)

    @property
    def value(self) -> Value:
        return self.operand(0)


class SelectInst(Instruction):
    def __init__(self, condition: Value, if_true: Value, if_false: Value, flags=(), name=None):
        if if_true.type != if_false.type:
            raise IRTypeError(f"select arms differ in type: {if_true.type} and {if_false.type}")
        super().__init__("select", if_true.type, [condition, if_true, if_false], name, flags)

    @property
    def condition(self) -> Value:
        return self.operand(0)


class PhiInst(Instruction):
    """`phi ty [v0, %b0], ...`: operands alternate incoming value and incoming block."""

    def __init__(self, type: Type, incoming=(), flags=(), name=None):
        super().__init__("phi", type, [], name, flags)
        for value, block in incoming:
            self.add_incoming(value, block)

    @property
    def incoming(self) -> list[tuple[Value, Value]]:
        ops = self._operands
        return [(ops[i], ops[i + 1]) for i in range(0, len(ops), 2)]

    def incoming_value(self, block: Value) -> Value | None:
        """The value coming in from `block` (None if `block` is not an incoming block)."""
        return next((value for value, source in self.incoming if source is block), None)

    def add_incoming(self, value: Value, block: Value) -> None:
        if value.type != self.type:
            raise IRTypeError(f"phi of {self.type} given a {value.type}")
        self.append_operand(value)
        self.append_operand(block)

    def remove_incoming(self, position: int) -> None:
        self.remove_operands(2 * position, 2 * position + 2)


class Terminator(Instruction):
    is_terminator = True


class BranchInst(Terminator):
    """`br label %d` (operands [dest]) or `br i1 %c, label %t, label %f` ([c, t, f])."""

    def __init__(self, operands, name=None):
        if len(operands) not in (1, 3):
            raise IRTypeError("br takes one destination or a condition and two destinations")
        super().__init__("br", VOID, operands, name)

    @property
    def is_conditional(self) -> bool:
        return len(self._operands) == 3

    @property
    def condition(self) -> Value | None:
        return self.operand(0) if self.is_conditional else None


class SwitchInst(Terminator):
    """Operands: [value, default, case0 value, case0 block, ...]."""

    def __init__(self, value: Value, default: Value, cases=()):
        super().__init__("switch", VOID, [value, default])
        for case_value, block in cases:
            self.add_case(case_value, block)

    @property
    def value(self) -> Value:
        return self.operand(0)

    @property
    def default(self) -> Value:
        return self.operand(1)

    @property
    def cases(self) -> list[tuple[Value, Value]]:
        ops = self._operands
        return [(ops[i], ops[i + 1]) for i in range(2, len(ops), 2)]

    def add_case(self, value: Value, block: Value) -> None:
        self.append_operand(value)
        self.append_operand(block)


class IndirectBrInst(Terminator):
    def __init__(self, address: Value, destinations=()):
        super().__init__("indirectbr", VOID, [address, *destinations])


class ReturnInst(Terminator):
    def __init__(self, value: Value | None = None):
        super().__init__("ret", VOID, [] if value is None else [value])

    @property
    def value(self) -> Value | None:
        return self.operand(0) if self._operands else None


class UnreachableInst(Terminator):
    def __init__(self):
        super().__init__("unreachable", VOID)


class ResumeInst(Terminator):
    def __init__(self, value: Value):
        super().__init__("resume", VOID, [value])


class CallBase(Instruction):
    """Shared by call, invoke and callbr.

    Operands: the arguments, then the operand-bundle values, then the callee, then (invoke,
    callbr) the destination blocks. `arg_attrs[i]`, `ret_attrs` and `fn_attrs` are attribute
    texts as written (`noundef`, `align 8`, `#3`); `bundles` lists (tag, operand count).
    """

    def __init__(
        self, opcode, function_type: FunctionType, callee, args, name=None, *, tail=None, cc=None,
        ret_attrs=(), arg_attrs=None, fn_attrs=(), bundles=(), flags=(), forward_varargs=False,
    ):
        expected = len(function_type.params)
        if len(args) < expected or (len(args) > expected and not function_type.vararg):
            raise IRTypeError(f"{opcode} passes {len(args)} arguments to a {function_type}")
        bundle_values = [value for _, values in bundles for value in values]
        super().__init__(opcode, function_type.ret, [*args, *bundle_values, callee], name, flags)
        self.function_type = function_type
        self.arg_count = len(args)
        self.tail: str | None = tail
        self.cc: str | None = cc
        self.ret_attrs: list[str] = list(ret_attrs)
        self.arg_attrs: list[list[str]] = [list(a) for a in (arg_attrs or [()] * len(args))]
        self.fn_attrs: list[str] = list(fn_attrs)
        self.bundles: list[tuple[str, int]] = [(tag, len(values)) for tag, values in bundles]
        self.forward_varargs = forward_varargs

    @property
    def args(self) -> tuple[Value, ...]:
        return tuple(self._operands[: self.arg_count])

    @property
    def callee(self) -> Value:
        return self.operand(self.arg_count + sum(count for _, count in self.bundles))

    @property
    def called_name(self) -> str | None:
        """The name of a directly called function (`@name`), else None."""
        callee = self.callee
        return callee.name if isinstance(callee, GlobalRef) else None

    def bundle_operands(self) -> list[tuple[str, list[Value]]]:
        result, index = [], self.arg_count
        for tag, count in self.bundles:
            result.append((tag, list(self._operands[index : index + count])))
            index += count
        return result


class CallInst(CallBase):
    def __init__(self, function_type, callee, args, name=None, **options):
        super().__init__("call", function_type, callee, args, name, **options)


class InvokeInst(CallBase):
    is_terminator = True

    def __init__(self, function_type, callee, args, normal, unwind, name=None, **options):
        super().__init__("invoke", function_type, callee, args, name, **options)
        self.append_operand(normal)
        self.append_operand(unwind)

    @property
    def normal_dest(self) -> Value:
        return self.operand(-2)

    @property
    def unwind_dest(self) -> Value:
        return self.operand(-1)


class CallBrInst(CallBase):
    is_terminator = True

    def __init__(self, function_type, callee, args, default, indirect, name=None, **options):
        super().__init__("callbr", function_type, callee, args, name, **options)
        self.append_operand(default)
        for block in indirect:
            self.append_operand(block)
        self.indirect_count = len(indirect)

    @property
    def default_dest(self) -> Value:
        return self.operand(len(self._operands) - self.indirect_count - 1)

    @property
    def indirect_dests(self) -> list[Value]:
        return list(self._operands[len(self._operands) - self.indirect_count :])


class LandingPadInst(Instruction):
    """Operands are the clause values; `clause_kinds[i]` is "catch" or "filter"."""

    def __init__(self, type: Type, cleanup: bool = False, clauses=(), name=None):
        super().__init__("landingpad", type, [value for _, value in clauses], name)
        self.cleanup = cleanup
        self.clause_kinds = [kind for kind, _ in clauses]

    @property
    def clauses(self) -> list[tuple[str, Value]]:
        return list(zip(self.clause_kinds, self._operands))


class AllocaInst(Instruction):
    """`alloca [inalloca] [swifterror] ty[, count][, align N][, addrspace(N)]`."""

    def __init__(self, allocated_type: Type, count=None, align=None, addrspace=0, flags=(), name=None):
        count = ConstantInt(I32, 1) if count is None else count
        super().__init__("alloca", PointerType(addrspace), [count], name, flags)
        self.allocated_type = allocated_type
        self.align: int | None = align
        self.addrspace = addrspace

    @property
    def count(self) -> Value:
        return self.operand(0)


class MemoryAccess(Instruction):
    """Fields shared by load, store, fence, cmpxchg and atomicrmw."""

    def __init__(
        self, opcode, type, operands, name=None, *, align=None, volatile=False, ordering=None,
        syncscope=None,
    ):
        super().__init__(opcode, type, operands, name)
        self.align: int | None = align
        self.volatile = volatile
        self.ordering: str | None = ordering
        self.syncscope: str | None = syncscope

    @property
    def is_atomic(self) -> bool:
        return self.ordering is not None


def require_pointer(value: Value, opcode: str) -> Value:
    if not value.type.is_pointer():
        raise IRTypeError(f"{opcode} needs a pointer operand, not {value.type}")
    return value


class LoadInst(MemoryAccess):
    def __init__(self, type: Type, pointer: Value, name=None, **access):
        super().__init__("load", type, [require_pointer(pointer, "load")], name, **access)

    @property
    def pointer(self) -> Value:
        return self.operand(0)


class StoreInst(MemoryAccess):
    def __init__(self, value: Value, pointer: Value, **access):
        super().__init__("store", VOID, [value, require_pointer(pointer, "store")], **access)

    @property
    def value(self) -> Value:
        return self.operand(0)

    @property
    def pointer(self) -> Value:
        return self.operand(1)


class FenceInst(MemoryAccess):
    def __init__(self, ordering: str, syncscope: str | None = None):
        super().__init__("fence", VOID, [], ordering=ordering, syncscope=syncscope)


class CmpXchgInst(MemoryAccess):
    """Result `{ ty, i1 }`; `failure_ordering` beside the inherited (success) `ordering`."""

    def __init__(self, pointer, expected, new, failure_ordering, weak=False, name=None, **access):
        operands = [require_pointer(pointer, "cmpxchg"), expected, new]
        super().__init__("cmpxchg", StructType((new.type, I1)), operands, name, **access)
        self.failure_ordering = failure_ordering
        self.weak = weak

    @property
    def pointer(self) -> Value:
        return self.operand(0)


class AtomicRMWInst(MemoryAccess):
    def __init__(self, operation: str, pointer: Value, value: Value, name=None, **access):
        super().__init__("atomicrmw", value.type, [require_pointer(pointer, "atomicrmw"), value], name, **access)
        self.operation = operation

    @property
    def pointer(self) -> Value:
        return self.operand(0)

    @property
    def value(self) -> Value:
        return self.operand(1)


class GetElementPtrInst(Instruction):
    """`getelementptr [flags] source_element_type, ptr p, indices...`."""

    def __init__(self, source_element_type: Type, pointer: Value, indices, flags=(), name=None):
        result = gep_result_type(require_pointer(pointer, "getelementptr"), indices)
        super().__init__("getelementptr", result, [pointer, *indices], name, flags)
        self.source_element_type = source_element_type

    @property
    def pointer(self) -> Value:
        return self.operand(0)

    @property
    def indices(self) -> tuple[Value, ...]:
        return tuple(self._operands[1:])


def gep_result_type(pointer: Value, indices) -> Type:
    if isinstance(pointer.type, VectorType):
        return pointer.type
    for index in indices:
        if isinstance(index.type, VectorType):
            return VectorType(index.type.count, pointer.type, index.type.scalable)
    return pointer.type


class ExtractValueInst(Instruction):
    def __init__(self, aggregate: Value, indices, name=None):
        super().__init__("extractvalue", indexed_type(aggregate.type, indices), [aggregate], name)
        self.indices = list(indices)

    @property
    def aggregate(self) -> Value:
        return self.operand(0)


class InsertValueInst(Instruction):
    def __init__(self, aggregate: Value, value: Value, indices, name=None):
        member = indexed_type(aggregate.type, indices)
        if member != value.type:
            raise IRTypeError(f"insertvalue of {value.type} into a member of type {member}")
        super().__init__("insertvalue", aggregate.type, [aggregate, value], name)
        self.indices = list(indices)

    @property
    def aggregate(self) -> Value:
        return self.operand(0)

    @property
    def value(self) -> Value:
        return self.operand(1)


def indexed_type(aggregate: Type, indices) -> Type:
    if not indices:
        raise IRTypeError("extractvalue/insertvalue need at least one index")
    for index in indices:
        aggregate = member_type(aggregate, index)
    return aggregate


class ExtractElementInst(Instruction):
    def __init__(self, vector: Value, index: Value, name=None):
        super().__init__("extractelement", vector_element(vector.type), [vector, index], name)


class InsertElementInst(Instruction):
    def __init__(self, vector: Value, value: Value, index: Value, name=None):
        if vector_element(vector.type) != value.type:
            raise IRTypeError(f"insertelement of {value.type} into {vector.type}")
        super().__init__("insertelement", vector.type, [vector, value, index], name)


class ShuffleVectorInst(Instruction):
    """`mask` lists the selected lanes; -1 stands for a poison lane."""

    def __init__(self, first: Value, second: Value, mask, name=None):
        element = vector_element(first.type)
        result = VectorType(len(mask), element, first.type.scalable)
        super().__init__("shufflevector", result, [first, second], name)
        self.mask = list(mask)


def vector_element(type: Type) -> Type:
    if not isinstance(type, VectorType):
        raise IRTypeError(f"{type} is not a vector type")
    return type.element


class FreezeInst(Instruction):
    def __init__(self, value: Value, name=None):
        super().__init__("freeze", value.type, [value], name)


class VAArgInst(Instruction):
    def __init__(self, valist: Value, type: Type, name=None):
        super().__init__("va_arg", type, [valist], name)


class FuncletPadInst(Instruction):
    """`cleanuppad` / `catchpad within %parent [args]`: operands [parent, args...]."""

    def __init__(self, opcode: str, parent_pad: Value, args=(), name=None):
        super().__init__(opcode, TOKEN, [parent_pad, *args], name)


class CatchSwitchInst(Terminator):
    """Operands: [parent pad, handlers..., unwind block (when not `to caller`)]."""

    def __init__(self, parent_pad: Value, handlers, unwind=None, name=None):
        operands = [parent_pad, *handlers] + ([unwind] if unwind is not None else [])
        super().__init__("catchswitch", TOKEN, operands, name)
        self.handler_count = len(handlers)

    @property
    def unwind_dest(self) -> Value | None:
        return self.operand(-1) if len(self._operands) > self.handler_count + 1 else None


class CatchReturnInst(Terminator):
    def __init__(self, pad: Value, destination: Value):
        super().__init__("catchret", VOID, [pad, destination])


class CleanupReturnInst(Terminator):
    def __init__(self, pad: Value, unwind=None):
        super().__init__("cleanupret", VOID, [pad] + ([unwind] if unwind is not None else []))
