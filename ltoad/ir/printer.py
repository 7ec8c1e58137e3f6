"""The printer: functions, instructions, constants and types back to LLVM 22 textual IR.

Output follows LLVM's own layout, so a parsed function prints back as the text it came from.
Unnamed values are numbered in order (arguments, blocks, instructions), as LLVM numbers them.
"""

from ltoad.ir.instructions import (
    AllocaInst,
    AtomicRMWInst,
    BinaryOperator,
    BranchInst,
    CallBase,
    CallBrInst,
    CallInst,
    CastInst,
    CatchReturnInst,
    CatchSwitchInst,
    CleanupReturnInst,
    CmpXchgInst,
    CompareInst,
    DebugRecord,
    ExtractElementInst,
    ExtractValueInst,
    FenceInst,
    FreezeInst,
    FuncletPadInst,
    GetElementPtrInst,
    IndirectBrInst,
    InsertElementInst,
    InsertValueInst,
    Instruction,
    InvokeInst,
    LandingPadInst,
    LoadInst,
    MemoryAccess,
    PhiInst,
    ResumeInst,
    ReturnInst,
    SelectInst,
    ShuffleVectorInst,
    StoreInst,
    SwitchInst,
    UnaryOperator,
    UnreachableInst,
    VAArgInst,
)
from ltoad.ir.lexer import quote
from ltoad.ir.types import I1, I32, VOID, ArrayType, VectorType, struct_body
from ltoad.ir.values import (
    BlockAddress,
    Constant,
    ConstantAggregate,
    ConstantExpr,
    ConstantFloat,
    ConstantInt,
    ConstantKeyword,
    ConstantSplat,
    ConstantString,
    GlobalRef,
    GlobalWrapper,
    InlineAsm,
    IRTypeError,
    MetadataValue,
    Value,
    ValueAsMetadata,
)

CONTINUATION = "\n          "


def print_function(function) -> str:
    """The `define` (or `declare`, without blocks) text of a function."""
    return FunctionPrinter(function).function_text()


def print_instruction(instruction: Instruction) -> str:
    """One instruction, numbered as in its function (or alone when not in one)."""
    block = instruction.parent
    function = block.parent if block is not None else None
    return FunctionPrinter(function).instruction_text(instruction)


class FunctionPrinter:
    """Prints one function; `names` holds how each local is written after `%`."""

    def __init__(self, function):
        self.function = function
        self.names: dict[Value, str] = {}
        if function is not None:
            self._name_locals()

    def _name_locals(self) -> None:
        """Number the unnamed locals as LLVM does; give repeated names a numeric suffix."""
        taken: set[str] = set()
        slot = 0
        for value in self._locals():
            if value.name is None:
                self.names[value] = str(slot)
                slot += 1
            else:
                self.names[value] = quote(unique_name(value.name, taken))

    def _locals(self):
        yield from self.function.args
        for block in self.function.blocks:
            yield block
            for instruction in block.instructions:
                if instruction.type != VOID:
                    yield instruction

    # ---- functions ----------------------------------------------------------------------

    def function_text(self) -> str:
        function = self.function
        keyword = "declare" if function.is_declaration else "define"
        words = [keyword, *function.prefix, str(function.return_type)]
        params = [self._param_text(arg) for arg in function.args]
        if function.vararg:
            params.append("...")
        header = " ".join(words) + f" @{quote(function.name)}({', '.join(params)})"
        tail = function.attributes + [f"!{name} {text}" for name, text in function.metadata]
        header += "".join(" " + item for item in tail)
        if function.is_declaration:
            return header
        return "\n".join([header + " {", *self._body_lines(), "}"])

    def _param_text(self, arg) -> str:
        words = [str(arg.type), *arg.attrs]
        if arg.name is not None or not self.function.is_declaration:
            words.append(self.ref(arg))
        return " ".join(words)

    def _body_lines(self) -> list[str]:
        lines = []
        for index, block in enumerate(self.function.blocks):
            if index:
                lines.append("")
            if index or block.name is not None:
                lines.append(self.names[block] + ":")
            for instruction in block.instructions:
                lines.extend("    " + self.record_text(r) for r in instruction.debug_records)
                lines.append("  " + self.instruction_text(instruction))
        lines.extend("  " + order for order in self.function.uselistorder)
        return lines

    # ---- values -------------------------------------------------------------------------

    def ref(self, value: Value) -> str:
        """How an operand is written: `%x`, `%5`, `@g` or a constant."""
        if isinstance(value, Constant):
            return self.constant_text(value)
        if isinstance(value, ValueAsMetadata):
            return self.typed(value.value)
        name = self.names.get(value)
        if name is not None:
            return "%" + name
        if value.name is None:
            raise IRTypeError(f"unnamed {value!r} is not part of the function being printed")
        return "%" + quote(value.name)

    def typed(self, value: Value) -> str:
        return f"{value.type} {self.ref(value)}"

    def typed_list(self, values) -> str:
        """`ty a, ty b, ...`."""
        return ", ".join(self.typed(value) for value in values)

    def constant_text(self, value: Constant) -> str:
        if isinstance(value, ConstantInt):
            if value.type == I1:
                return "true" if value.value else "false"
            return str(value.value)
        if isinstance(value, ConstantFloat):
            return value.text
        if isinstance(value, GlobalRef):
            return "@" + quote(value.name)
        if isinstance(value, ConstantKeyword):
            return value.keyword
        return self._complex_constant_text(value)

    def _complex_constant_text(self, value: Constant) -> str:
        if isinstance(value, ConstantAggregate):
            return self._aggregate_text(value)
        if isinstance(value, ConstantExpr):
            return self._expression_text(value)
        if isinstance(value, ConstantString):
            return f'c"{value.text}"'
        if isinstance(value, ConstantSplat):
            return f"splat ({self.typed(value.element)})"
        if isinstance(value, MetadataValue):
            return value.text
        if isinstance(value, BlockAddress):
            return f"blockaddress({self.ref(value.function)}, %{value.block})"
        if isinstance(value, GlobalWrapper):
            return f"{value.keyword} {self.ref(value.target)}"
        if isinstance(value, InlineAsm):
            return " ".join(["asm", *value.flags, value.asm + ",", value.constraints])
        raise IRTypeError(f"cannot print constant {value!r}")

    def _aggregate_text(self, value: ConstantAggregate) -> str:
        inner = self.typed_list(value.elements)
        if isinstance(value.type, ArrayType):
            return f"[{inner}]"
        if isinstance(value.type, VectorType):
            return f"<{inner}>"
        body = f"{{ {inner} }}" if inner else "{}"
        return f"<{body}>" if struct_body(value.type).packed else body

    def _expression_text(self, value: ConstantExpr) -> str:
        head = " ".join([value.opcode, *value.flags])
        operands = self.typed_list(value.operands)
        if value.kind == "gep":
            return f"{head} ({value.source_type}, {operands})"
        if value.kind == "cast":
            return f"{head} ({operands} to {value.type})"
        return f"{head} ({operands})"

    def record_text(self, record: DebugRecord) -> str:
        items = []
        for item in record.items:
            if isinstance(item, str):
                items.append(item)
            elif isinstance(item, int):
                items.append(self.typed(record.operand(item)))
            else:
                listed = self.typed_list(record.operand(index) for index in item)
                items.append(f"!DIArgList({listed})")
        return f"#dbg_{record.kind}({', '.join(items)})"

    # ---- instructions -------------------------------------------------------------------

    def instruction_text(self, instruction: Instruction) -> str:
        writer = _WRITERS.get(type(instruction))
        if writer is None:
            raise IRTypeError(f"cannot print instruction {instruction!r}")
        text = writer(self, instruction)
        if instruction.type != VOID:
            text = f"{self.ref(instruction)} = {text}"
        for name, value in instruction.metadata:
            text += f", !{name} {value}"
        return text

    def _head(self, instruction: Instruction) -> str:
        return " ".join([instruction.opcode, *instruction.flags])

    def _binary(self, inst: BinaryOperator) -> str:
        return f"{self._head(inst)} {self.typed(inst.lhs)}, {self.ref(inst.rhs)}"

    def _unary(self, inst: UnaryOperator) -> str:
        return f"{self._head(inst)} {self.typed(inst.operand(0))}"

    def _compare(self, inst: CompareInst) -> str:
        return f"{self._head(inst)} {inst.predicate} {self.typed(inst.lhs)}, {self.ref(inst.rhs)}"

    def _cast(self, inst: CastInst) -> str:
        return f"{self._head(inst)} {self.typed(inst.value)} to {inst.type}"

    def _operands(self, inst: Instruction) -> str:
        """`opcode [flags] ty a, ty b, ...`: the instructions that list typed operands."""
        return f"{self._head(inst)} {self.typed_list(inst.operands)}"

    def _phi(self, inst: PhiInst) -> str:
        incoming = ", ".join(f"[ {self.ref(v)}, {self.ref(b)} ]" for v, b in inst.incoming)
        return f"{self._head(inst)} {inst.type} {incoming}"

    def _label(self, block: Value) -> str:
        return f"label {self.ref(block)}"

    def _labels(self, blocks) -> str:
        return "[" + ", ".join(self._label(block) for block in blocks) + "]"

    def _br(self, inst: BranchInst) -> str:
        if not inst.is_conditional:
            return f"br {self._label(inst.operand(0))}"
        return f"br {self.typed(inst.condition)}, {self._label(inst.operand(1))}, {self._label(inst.operand(2))}"

    def _switch(self, inst: SwitchInst) -> str:
        cases = "".join(f"    {self.typed(v)}, {self._label(b)}\n" for v, b in inst.cases)
        return f"switch {self.typed(inst.value)}, {self._label(inst.default)} [\n{cases}  ]"

    def _indirectbr(self, inst: IndirectBrInst) -> str:
        return f"indirectbr {self.typed(inst.operand(0))}, {self._labels(inst.operands[1:])}"

    def _ret(self, inst: ReturnInst) -> str:
        return "ret void" if inst.value is None else f"ret {self.typed(inst.value)}"

    def _unreachable(self, inst: UnreachableInst) -> str:
        return "unreachable"

    def _call(self, inst: CallBase) -> str:
        words = [inst.tail] if inst.tail else []
        words += [inst.opcode, *inst.flags] + ([inst.cc] if inst.cc else []) + inst.ret_attrs
        fnty = inst.function_type
        words.append(str(fnty if fnty.vararg else fnty.ret))
        args = [" ".join([str(a.type), *attrs, self.ref(a)]) for a, attrs in zip(inst.args, inst.arg_attrs)]
        if inst.forward_varargs:
            args.append("...")
        text = " ".join(words) + f" {self.ref(inst.callee)}({', '.join(args)})"
        text += "".join(" " + attr for attr in inst.fn_attrs)
        if inst.bundles:
            bundles = (f"{tag}({self.typed_list(ops)})" for tag, ops in inst.bundle_operands())
            text += f" [ {', '.join(bundles)} ]"
        return text

    def _invoke(self, inst: InvokeInst) -> str:
        destinations = f"to {self._label(inst.normal_dest)} unwind {self._label(inst.unwind_dest)}"
        return self._call(inst) + CONTINUATION + destinations

    def _callbr(self, inst: CallBrInst) -> str:
        destinations = f"to {self._label(inst.default_dest)} {self._labels(inst.indirect_dests)}"
        return self._call(inst) + CONTINUATION + destinations

    def _landingpad(self, inst: LandingPadInst) -> str:
        text = f"landingpad {inst.type}" + (CONTINUATION + "cleanup" if inst.cleanup else "")
        return text + "".join(f"{CONTINUATION}{kind} {self.typed(v)}" for kind, v in inst.clauses)

    def _alloca(self, inst: AllocaInst) -> str:
        text = f"{self._head(inst)} {inst.allocated_type}"
        count = inst.count
        if not (isinstance(count, ConstantInt) and count.value == 1 and count.type == I32):
            text += f", {self.typed(count)}"
        if inst.align is not None:
            text += f", align {inst.align}"
        return text + (f", addrspace({inst.addrspace})" if inst.addrspace else "")

    def _access_head(self, inst: MemoryAccess, *extra: str) -> str:
        atomic = ["atomic"] if inst.is_atomic and isinstance(inst, (LoadInst, StoreInst)) else []
        volatile = ["volatile"] if inst.volatile else []
        return " ".join([inst.opcode, *atomic, *extra, *volatile])

    def _access_tail(self, inst: MemoryAccess, *orderings: str) -> str:
        scope = f" syncscope({inst.syncscope})" if inst.syncscope else ""
        text = scope + "".join(f" {o}" for o in orderings if o)
        return text + (f", align {inst.align}" if inst.align is not None else "")

    def _load(self, inst: LoadInst) -> str:
        body = f"{self._access_head(inst)} {inst.type}, {self.typed(inst.pointer)}"
        return body + self._access_tail(inst, inst.ordering)

    def _store(self, inst: StoreInst) -> str:
        body = f"{self._access_head(inst)} {self.typed(inst.value)}, {self.typed(inst.pointer)}"
        return body + self._access_tail(inst, inst.ordering)

    def _fence(self, inst: FenceInst) -> str:
        return "fence" + self._access_tail(inst, inst.ordering)

    def _cmpxchg(self, inst: CmpXchgInst) -> str:
        head = self._access_head(inst, *(["weak"] if inst.weak else []))
        tail = self._access_tail(inst, inst.ordering, inst.failure_ordering)
        return f"{head} {self.typed_list(inst.operands)}{tail}"

    def _atomicrmw(self, inst: AtomicRMWInst) -> str:
        body = f"{self._access_head(inst)} {inst.operation} {self.typed_list(inst.operands)}"
        return body + self._access_tail(inst, inst.ordering)

    def _gep(self, inst: GetElementPtrInst) -> str:
        return f"{self._head(inst)} {inst.source_element_type}, {self.typed_list(inst.operands)}"

    def _value_indices(self, inst) -> str:
        return self._operands(inst) + "".join(f", {index}" for index in inst.indices)

    def _shufflevector(self, inst: ShuffleVectorInst) -> str:
        return f"{self._operands(inst)}, {shuffle_mask_text(inst.mask, inst.type)}"

    def _va_arg(self, inst: VAArgInst) -> str:
        return f"va_arg {self.typed(inst.operand(0))}, {inst.type}"

    def _funclet_pad(self, inst: FuncletPadInst) -> str:
        args = self.typed_list(inst.operands[1:])
        return f"{inst.opcode} within {self.ref(inst.operand(0))} [{args}]"

    def _unwind_text(self, destination) -> str:
        return "unwind to caller" if destination is None else f"unwind {self._label(destination)}"

    def _catchswitch(self, inst: CatchSwitchInst) -> str:
        handlers = self._labels(inst.operands[1 : 1 + inst.handler_count])
        parent = self.ref(inst.operand(0))
        return f"catchswitch within {parent} {handlers} {self._unwind_text(inst.unwind_dest)}"

    def _catchret(self, inst: CatchReturnInst) -> str:
        return f"catchret from {self.ref(inst.operand(0))} to {self._label(inst.operand(1))}"

    def _cleanupret(self, inst: CleanupReturnInst) -> str:
        unwind = inst.operand(1) if len(inst.operands) > 1 else None
        return f"cleanupret from {self.ref(inst.operand(0))} {self._unwind_text(unwind)}"



def unique_name(name: str, taken: set[str]) -> str:
    """`name`, or `name1`, `name2`, ... when already taken; the result is added to `taken`."""
    candidate, suffix = name, 0
    while candidate in taken:
        suffix += 1
        candidate = f"{name}{suffix}"
    taken.add(candidate)
    return candidate


def shuffle_mask_text(mask: list[int], result_type) -> str:
    """LLVM's spelling of a shuffle mask: zeroinitializer, poison, or `<i32 a, i32 poison, ...>`."""
    mask_type = VectorType(len(mask), I32, getattr(result_type, "scalable", False))
    if all(lane == 0 for lane in mask):
        return f"{mask_type} zeroinitializer"
    if all(lane < 0 for lane in mask):
        return f"{mask_type} poison"
    lanes = ", ".join("i32 poison" if lane < 0 else f"i32 {lane}" for lane in mask)
    return f"{mask_type} <{lanes}>"


_WRITERS = {
    BinaryOperator: FunctionPrinter._binary,
    UnaryOperator: FunctionPrinter._unary,
    CompareInst: FunctionPrinter._compare,
    CastInst: FunctionPrinter._cast,
    SelectInst: FunctionPrinter._operands,
    PhiInst: FunctionPrinter._phi,
    BranchInst: FunctionPrinter._br,
    SwitchInst: FunctionPrinter._switch,
    IndirectBrInst: FunctionPrinter._indirectbr,
    ReturnInst: FunctionPrinter._ret,
    UnreachableInst: FunctionPrinter._unreachable,
    ResumeInst: FunctionPrinter._operands,
    CallInst: FunctionPrinter._call,
    InvokeInst: FunctionPrinter._invoke,
    CallBrInst: FunctionPrinter._callbr,
    LandingPadInst: FunctionPrinter._landingpad,
    AllocaInst: FunctionPrinter._alloca,
    LoadInst: FunctionPrinter._load,
    StoreInst: FunctionPrinter._store,
    FenceInst: FunctionPrinter._fence,
    CmpXchgInst: FunctionPrinter._cmpxchg,
    AtomicRMWInst: FunctionPrinter._atomicrmw,
    GetElementPtrInst: FunctionPrinter._gep,
    ExtractValueInst: FunctionPrinter._value_indices,
    InsertValueInst: FunctionPrinter._value_indices,
    ExtractElementInst: FunctionPrinter._operands,
    InsertElementInst: FunctionPrinter._operands,
    ShuffleVectorInst: FunctionPrinter._shufflevector,
    FreezeInst: FunctionPrinter._operands,
    VAArgInst: FunctionPrinter._va_arg,
    FuncletPadInst: FunctionPrinter._funclet_pad,
    CatchSwitchInst: FunctionPrinter._catchswitch,
    CatchReturnInst: FunctionPrinter._catchret,
    CleanupReturnInst: FunctionPrinter._cleanupret,
}
