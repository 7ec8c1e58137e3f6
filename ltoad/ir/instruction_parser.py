"""Reading one instruction (opcode, operands, fields, trailing metadata) or debug record."""

from ltoad.ir.instructions import (
    BINARY_OPCODES,
    FAST_MATH_FLAGS,
    AllocaInst,
    AtomicRMWInst,
    BinaryOperator,
    BranchInst,
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
from ltoad.ir.parser import VALUE_KEYWORDS, Parser
from ltoad.ir.types import PTR, TOKEN, VOID, FunctionType, IRTypeError, VectorType
from ltoad.ir.values import (
    CAST_OPCODES,
    ConstantAggregate,
    ConstantInt,
    Poison,
    Undef,
    Value,
    ZeroInitializer,
)

CALLING_CONVENTIONS = frozenset(
    "ccc fastcc coldcc ghccc tailcc swiftcc swifttailcc cfguard_checkcc webkit_jscc anyregcc "
    "preserve_mostcc preserve_allcc preserve_nonecc cxx_fast_tlscc x86_stdcallcc "
    "x86_fastcallcc x86_thiscallcc x86_vectorcallcc x86_regcallcc x86_intrcc x86_64_sysvcc "
    "win64cc intel_ocl_bicc arm_apcscc arm_aapcscc arm_aapcs_vfpcc aarch64_vector_pcs "
    "aarch64_sve_vector_pcs riscv_vector_cc".split()
)
ORDERINGS = frozenset("unordered monotonic acquire release acq_rel seq_cst".split())
CALL_KEYWORDS = ("tail", "musttail", "notail")


class InstructionParser(Parser):
    """Adds instructions to the base reader; locals and blocks come from `resolve_local` and
    `resolve_block`, which the function reader provides."""

    def resolve_block(self, token: str) -> Value:
        self.error("blocks are only allowed inside a function body", self.pos - 1)

    def parse_block_ref(self) -> Value:
        token = self.tokens[self.pos]
        if token[:1] != "%" or len(token) < 2:
            self.error("expected block label")
        self.pos += 1
        return self.resolve_block(token)

    def parse_label(self) -> Value:
        self.expect("label")
        return self.parse_block_ref()

    def parse_instruction(self) -> Instruction:
        """One instruction from its opcode on, with its metadata attachments."""
        start = self.pos
        opcode = self.tokens[self.pos]
        reader = self._READERS.get(opcode)
        if reader is None:
            self.error("expected instruction opcode")
        self.pos += 1
        try:
            instruction = reader(self, opcode)
        except IRTypeError as problem:
            self.error(str(problem), start)
        instruction.metadata = self.parse_attachments()
        return instruction

    def parse_attachments(self) -> list[tuple[str, str]]:
        attachments = []
        while self.at_metadata_suffix():
            self.pos += 1
            name = self.next()[1:]
            attachments.append((name, self.parse_metadata_text()))
        return attachments

    # ---- arithmetic, comparisons, casts ------------------------------------------------

    def _binary(self, opcode: str) -> Instruction:
        flags = self.parse_flags()
        lhs = self.parse_typed_value()
        self.expect(",")
        return BinaryOperator(opcode, lhs, self.parse_value(lhs.type), flags)

    def _unary(self, opcode: str) -> Instruction:
        flags = self.parse_flags()
        return UnaryOperator(opcode, self.parse_typed_value(), flags)

    def _compare(self, opcode: str) -> Instruction:
        flags = self.parse_flags()
        predicate = self.next()
        if not predicate.isidentifier():
            self.error("expected comparison predicate", self.pos - 1)
        lhs = self.parse_typed_value()
        self.expect(",")
        return CompareInst(opcode, predicate, lhs, self.parse_value(lhs.type), flags)

    def _cast(self, opcode: str) -> Instruction:
        flags = self.parse_flags()
        value = self.parse_typed_value()
        self.expect("to")
        return CastInst(opcode, value, self.parse_type(), flags)

    def _select(self, opcode: str) -> Instruction:
        flags = self.parse_flags()
        condition = self.parse_typed_value()
        self.expect(",")
        if_true = self.parse_typed_value()
        self.expect(",")
        return SelectInst(condition, if_true, self.parse_typed_value(), flags)

    def _phi(self, opcode: str) -> Instruction:
        flags = self.parse_flags()
        phi = PhiInst(self.parse_type(), flags=flags)
        while True:
            self.expect("[")
            value = self.parse_value(phi.type)
            self.expect(",")
            phi.add_incoming(value, self.parse_block_ref())
            self.expect("]")
            if not (self.tokens[self.pos] == "," and self.peek(1) == "["):
                return phi
            self.pos += 1

    def _freeze(self, opcode: str) -> Instruction:
        return FreezeInst(self.parse_typed_value())

    def _va_arg(self, opcode: str) -> Instruction:
        valist = self.parse_typed_value()
        self.expect(",")
        return VAArgInst(valist, self.parse_type())

    # ---- terminators --------------------------------------------------------------------

    def _br(self, opcode: str) -> Instruction:
        if self.accept("label"):
            return BranchInst([self.parse_block_ref()])
        condition = self.parse_typed_value()
        self.expect(",")
        if_true = self.parse_label()
        self.expect(",")
        return BranchInst([condition, if_true, self.parse_label()])

    def _switch(self, opcode: str) -> Instruction:
        value = self.parse_typed_value()
        self.expect(",")
        switch = SwitchInst(value, self.parse_label())
        self.expect("[")
        while not self.accept("]"):
            case = self.parse_typed_value()
            self.expect(",")
            switch.add_case(case, self.parse_label())
        return switch

    def _indirectbr(self, opcode: str) -> Instruction:
        address = self.parse_typed_value()
        self.expect(",")
        return IndirectBrInst(address, self._parse_label_list())

    def _parse_label_list(self) -> list[Value]:
        self.expect("[")
        return self.parse_comma_list("]", self.parse_label)

    def _ret(self, opcode: str) -> Instruction:
        type = self.parse_type()
        return ReturnInst() if type == VOID else ReturnInst(self.parse_value(type))

    def _unreachable(self, opcode: str) -> Instruction:
        return UnreachableInst()

    def _resume(self, opcode: str) -> Instruction:
        return ResumeInst(self.parse_typed_value())

    # ---- calls --------------------------------------------------------------------------

    def _call(self, opcode: str) -> Instruction:
        tail = None
        if opcode in CALL_KEYWORDS:
            tail = opcode
            self.expect("call")
        flags = self.parse_flags(FAST_MATH_FLAGS)
        function_type, callee, args, options = self.parse_call_site()
        return CallInst(function_type, callee, args, tail=tail, flags=flags, **options)

    def _invoke(self, opcode: str) -> Instruction:
        function_type, callee, args, options = self.parse_call_site()
        self.expect("to")
        normal = self.parse_label()
        self.expect("unwind")
        return InvokeInst(function_type, callee, args, normal, self.parse_label(), **options)

    def _callbr(self, opcode: str) -> Instruction:
        function_type, callee, args, options = self.parse_call_site()
        self.expect("to")
        default = self.parse_label()
        return CallBrInst(function_type, callee, args, default, self._parse_label_list(), **options)

    def parse_call_site(self) -> tuple[FunctionType, Value, list[Value], dict]:
        """From the calling convention to the operand bundles of a call, invoke or callbr."""
        cc = self._parse_optional_calling_convention()
        ret_attrs = self.parse_attributes()
        declared = self.parse_type()
        callee = self.parse_value(PTR)
        args, arg_attrs, forward_varargs = self._parse_call_args()
        fn_attrs = self.parse_attributes(CALL_SITE_END)
        bundles = self._parse_bundles()
        if isinstance(declared, FunctionType):
            function_type = declared
        else:
            function_type = FunctionType(declared, tuple(arg.type for arg in args))
        options = dict(
            cc=cc, ret_attrs=ret_attrs, arg_attrs=arg_attrs, fn_attrs=fn_attrs, bundles=bundles,
            forward_varargs=forward_varargs,
        )
        return function_type, callee, args, options

    def _parse_optional_calling_convention(self) -> str | None:
        token = self.tokens[self.pos]
        if token in CALLING_CONVENTIONS:
            self.pos += 1
            return token
        if token == "cc":
            self.pos += 1
            return f"cc {self.parse_int('calling convention number')}"
        return None

    def _parse_call_args(self) -> tuple[list[Value], list[list[str]], bool]:
        self.expect("(")
        args, forward_varargs = self.parse_parameter_list(self._parse_call_arg)
        return [value for value, _ in args], [attrs for _, attrs in args], forward_varargs

    def _parse_call_arg(self) -> tuple[Value, list[str]]:
        type = self.parse_type()
        attrs = self.parse_attributes(VALUE_KEYWORDS)
        return self.parse_value(type), attrs

    def _parse_bundles(self) -> list[tuple[str, list[Value]]]:
        """`[ "tag"(ty v, ...), ... ]` after a call's attributes, if present."""
        return self.parse_comma_list("]", self._parse_bundle) if self.accept("[") else []

    def _parse_bundle(self) -> tuple[str, list[Value]]:
        tag = self.parse_string("operand bundle tag")
        self.expect("(")
        return tag, self.parse_typed_values(")")

    def _landingpad(self, opcode: str) -> Instruction:
        type = self.parse_type()
        cleanup = self.accept("cleanup")
        clauses = []
        while self.tokens[self.pos] in ("catch", "filter"):
            kind = self.next()
            clauses.append((kind, self.parse_typed_value()))
        return LandingPadInst(type, cleanup, clauses)

    # ---- memory -------------------------------------------------------------------------

    def _alloca(self, opcode: str) -> Instruction:
        flags = self.parse_flags(("inalloca", "swifterror"))
        allocated = self.parse_type()
        count, align, addrspace = None, None, 0
        while self.tokens[self.pos] == "," and not self.at_metadata_suffix():
            self.pos += 1
            if self.accept("align"):
                align = self.parse_int("alignment")
            elif self.accept("addrspace"):
                addrspace = self._parse_parenthesized_int()
            else:
                count = self.parse_typed_value()
        return AllocaInst(allocated, count, align, addrspace, flags)

    def _parse_parenthesized_int(self) -> int:
        self.expect("(")
        value = self.parse_int()
        self.expect(")")
        return value

    def _parse_optional_align(self) -> int | None:
        if self.tokens[self.pos] == "," and self.peek(1) == "align":
            self.pos += 2
            return self.parse_int("alignment")
        return None

    def _parse_ordering(self) -> dict:
        """`[syncscope("x")] ordering` of an atomic access."""
        syncscope = None
        if self.accept("syncscope"):
            self.expect("(")
            syncscope = self.parse_string("sync scope")
            self.expect(")")
        return {"syncscope": syncscope, "ordering": self._parse_ordering_keyword("atomic ordering")}

    def _parse_ordering_keyword(self, what: str) -> str:
        ordering = self.next()
        if ordering not in ORDERINGS:
            self.error(f"expected {what}", self.pos - 1)
        return ordering

    def _parse_access(self, volatile: bool, atomic: bool = True) -> dict:
        """The fields after the operands: `[syncscope("x") ordering][, align N]`."""
        ordering = self._parse_ordering() if atomic else {}
        return {**ordering, "volatile": volatile, "align": self._parse_optional_align()}

    def _load(self, opcode: str) -> Instruction:
        atomic = self.accept("atomic")
        volatile = self.accept("volatile")
        type = self.parse_type()
        self.expect(",")
        pointer = self.parse_typed_value()
        return LoadInst(type, pointer, **self._parse_access(volatile, atomic))

    def _store(self, opcode: str) -> Instruction:
        atomic = self.accept("atomic")
        volatile = self.accept("volatile")
        value = self.parse_typed_value()
        self.expect(",")
        pointer = self.parse_typed_value()
        return StoreInst(value, pointer, **self._parse_access(volatile, atomic))

    def _fence(self, opcode: str) -> Instruction:
        return FenceInst(**self._parse_ordering())

    def _cmpxchg(self, opcode: str) -> Instruction:
        weak = self.accept("weak")
        volatile = self.accept("volatile")
        pointer = self.parse_typed_value()
        self.expect(",")
        expected = self.parse_typed_value()
        self.expect(",")
        new = self.parse_typed_value()
        ordering = self._parse_ordering()
        failure = self._parse_ordering_keyword("failure ordering")
        align = self._parse_optional_align()
        return CmpXchgInst(pointer, expected, new, failure, weak, volatile=volatile, align=align, **ordering)

    def _atomicrmw(self, opcode: str) -> Instruction:
        volatile = self.accept("volatile")
        operation = self.next()
        if not operation.isidentifier():
            self.error("expected atomicrmw operation", self.pos - 1)
        pointer = self.parse_typed_value()
        self.expect(",")
        value = self.parse_typed_value()
        return AtomicRMWInst(operation, pointer, value, **self._parse_access(volatile))

    def _getelementptr(self, opcode: str) -> Instruction:
        flags = self.parse_flags()
        source = self.parse_type()
        self.expect(",")
        pointer = self.parse_typed_value()
        indices = []
        while self.tokens[self.pos] == "," and not self.at_metadata_suffix():
            self.pos += 1
            indices.append(self.parse_typed_value())
        return GetElementPtrInst(source, pointer, indices, flags)

    # ---- aggregates and vectors ---------------------------------------------------------

    def _parse_indices(self) -> list[int]:
        indices = []
        while self.tokens[self.pos] == "," and not self.at_metadata_suffix():
            self.pos += 1
            indices.append(self.parse_int("index"))
        return indices

    def _extractvalue(self, opcode: str) -> Instruction:
        aggregate = self.parse_typed_value()
        return ExtractValueInst(aggregate, self._parse_indices())

    def _insertvalue(self, opcode: str) -> Instruction:
        aggregate = self.parse_typed_value()
        self.expect(",")
        value = self.parse_typed_value()
        return InsertValueInst(aggregate, value, self._parse_indices())

    def _extractelement(self, opcode: str) -> Instruction:
        vector = self.parse_typed_value()
        self.expect(",")
        return ExtractElementInst(vector, self.parse_typed_value())

    def _insertelement(self, opcode: str) -> Instruction:
        vector = self.parse_typed_value()
        self.expect(",")
        value = self.parse_typed_value()
        self.expect(",")
        return InsertElementInst(vector, value, self.parse_typed_value())

    def _shufflevector(self, opcode: str) -> Instruction:
        first = self.parse_typed_value()
        self.expect(",")
        second = self.parse_typed_value()
        self.expect(",")
        mask_index = self.pos
        mask = self.parse_typed_value()
        lanes = shuffle_mask(mask)
        if lanes is None:
            self.error("expected constant shuffle mask", mask_index)
        return ShuffleVectorInst(first, second, lanes)

    # ---- exception-handling pads --------------------------------------------------------

    def _funclet_pad(self, opcode: str) -> Instruction:
        self.expect("within")
        parent = self.parse_value(TOKEN)
        self.expect("[")
        return FuncletPadInst(opcode, parent, self.parse_typed_values("]"))

    def _catchswitch(self, opcode: str) -> Instruction:
        self.expect("within")
        parent = self.parse_value(TOKEN)
        handlers = self._parse_label_list()
        return CatchSwitchInst(parent, handlers, self._parse_unwind_dest())

    def _parse_unwind_dest(self) -> Value | None:
        self.expect("unwind")
        if self.accept("to"):
            self.expect("caller")
            return None
        return self.parse_label()

    def _catchret(self, opcode: str) -> Instruction:
        self.expect("from")
        pad = self.parse_value(TOKEN)
        self.expect("to")
        return CatchReturnInst(pad, self.parse_label())

    def _cleanupret(self, opcode: str) -> Instruction:
        self.expect("from")
        pad = self.parse_value(TOKEN)
        return CleanupReturnInst(pad, self._parse_unwind_dest())

    # ---- debug records ------------------------------------------------------------------

    def parse_debug_record(self) -> DebugRecord:
        """`#dbg_kind(args)`: metadata args kept as text, value args as operands."""
        kind = self.next()[len("#dbg_") :]
        self.expect("(")
        items, values = [], []
        while not self.accept(")"):
            if items:
                self.expect(",")
            items.append(self._parse_record_item(values))
        return DebugRecord(kind, items, values)

    def _parse_record_item(self, values: list[Value]):
        token = self.tokens[self.pos]
        if token == "!DIArgList":
            self.pos += 1
            self.expect("(")
            listed = self.parse_typed_values(")")
            values.extend(listed)
            return tuple(range(len(values) - len(listed), len(values)))
        if token[:1] == "!":
            return self.parse_metadata_text()
        values.append(self.parse_typed_value())
        return len(values) - 1

    _READERS = {
        **dict.fromkeys(BINARY_OPCODES, _binary),
        **dict.fromkeys(CAST_OPCODES, _cast),
        **dict.fromkeys(("call", *CALL_KEYWORDS), _call),
        "fneg": _unary,
        "icmp": _compare,
        "fcmp": _compare,
        "select": _select,
        "phi": _phi,
        "freeze": _freeze,
        "va_arg": _va_arg,
        "br": _br,
        "switch": _switch,
        "indirectbr": _indirectbr,
        "ret": _ret,
        "unreachable": _unreachable,
        "resume": _resume,
        "invoke": _invoke,
        "callbr": _callbr,
        "landingpad": _landingpad,
        "alloca": _alloca,
        "load": _load,
        "store": _store,
        "fence": _fence,
        "cmpxchg": _cmpxchg,
        "atomicrmw": _atomicrmw,
        "getelementptr": _getelementptr,
        "extractvalue": _extractvalue,
        "insertvalue": _insertvalue,
        "extractelement": _extractelement,
        "insertelement": _insertelement,
        "shufflevector": _shufflevector,
        "cleanuppad": _funclet_pad,
        "catchpad": _funclet_pad,
        "catchswitch": _catchswitch,
        "catchret": _catchret,
        "cleanupret": _cleanupret,
    }


CALL_SITE_END = frozenset(InstructionParser._READERS) | {"to", "uselistorder", "uselistorder_bb"}


def shuffle_mask(mask: Value) -> list[int] | None:
    """The lanes of a constant shuffle mask (-1 for poison/undef lanes), or None."""
    type = mask.type
    if not isinstance(type, VectorType):
        return None
    if isinstance(mask, ZeroInitializer):
        return [0] * type.count
    if isinstance(mask, (Poison, Undef)):
        return [-1] * type.count
    if not isinstance(mask, ConstantAggregate):
        return None
    lanes = []
    for element in mask.elements:
        if isinstance(element, ConstantInt):
            lanes.append(element.value)
        elif isinstance(element, (Poison, Undef)):
            lanes.append(-1)
        else:
            return None
    return lanes
