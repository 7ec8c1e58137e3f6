"""Building IR in memory: new instructions inserted at a position in a block.

    function = Function("square", DOUBLE, [Argument(DOUBLE, "x")])
    b = Builder(function.add_block("entry"))
    b.ret(b.fmul(function.args[0], function.args[0], name="y"))
    print_function(function)   # define double @square(double %x) { entry: ... }
"""

from ltoad.ir.function import Block, Function
from ltoad.ir.instructions import (
    AllocaInst,
    BinaryOperator,
    BranchInst,
    CallInst,
    CastInst,
    CompareInst,
    ExtractElementInst,
    ExtractValueInst,
    FreezeInst,
    GetElementPtrInst,
    InsertElementInst,
    InsertValueInst,
    Instruction,
    LoadInst,
    PhiInst,
    ReturnInst,
    SelectInst,
    ShuffleVectorInst,
    StoreInst,
    SwitchInst,
    UnaryOperator,
    UnreachableInst,
)
from ltoad.ir.types import FloatType, IntType, IRTypeError, Type
from ltoad.ir.values import ConstantFloat, ConstantInt, GlobalRef, Value


def constant(type: Type, value: int | float) -> Value:
    """An integer or floating-point constant of `type`."""
    if isinstance(type, IntType):
        return ConstantInt(type, int(value))
    if isinstance(type, FloatType):
        return ConstantFloat.from_value(type, float(value))
    raise IRTypeError(f"no numeric constant of type {type}")


class Builder:
    """Inserts each new instruction at the end of `block`, or before a chosen instruction."""

    def __init__(self, block: Block | None = None):
        self.block = block
        self.index: int | None = None

    def position_at_end(self, block: Block) -> None:
        self.block, self.index = block, None

    def position_before(self, instruction: Instruction) -> None:
        self.block = instruction.parent
        self.index = self.block.instructions.index(instruction)

    def insert(self, instruction: Instruction, name: str | None = None) -> Instruction:
        if self.block is None:
            raise IRTypeError("the builder has no insertion block")
        instruction.name = name
        if self.index is None:
            return self.block.append(instruction)
        self.block.insert(self.index, instruction)
        self.index += 1
        return instruction

    # ---- arithmetic and comparisons -----------------------------------------------------

    def binary(self, opcode: str, lhs: Value, rhs: Value, flags=(), name=None) -> Instruction:
        return self.insert(BinaryOperator(opcode, lhs, rhs, flags), name)

    def fadd(self, lhs: Value, rhs: Value, flags=(), name=None) -> Instruction:
        return self.binary("fadd", lhs, rhs, flags, name)

    def fsub(self, lhs: Value, rhs: Value, flags=(), name=None) -> Instruction:
        return self.binary("fsub", lhs, rhs, flags, name)

    def fmul(self, lhs: Value, rhs: Value, flags=(), name=None) -> Instruction:
        return self.binary("fmul", lhs, rhs, flags, name)

    def fdiv(self, lhs: Value, rhs: Value, flags=(), name=None) -> Instruction:
        return self.binary("fdiv", lhs, rhs, flags, name)

    def add(self, lhs: Value, rhs: Value, flags=(), name=None) -> Instruction:
        return self.binary("add", lhs, rhs, flags, name)

    def fneg(self, value: Value, flags=(), name=None) -> Instruction:
        return self.insert(UnaryOperator("fneg", value, flags), name)

    def icmp(self, predicate: str, lhs: Value, rhs: Value, name=None) -> Instruction:
        return self.insert(CompareInst("icmp", predicate, lhs, rhs), name)

    def fcmp(self, predicate: str, lhs: Value, rhs: Value, flags=(), name=None) -> Instruction:
        return self.insert(CompareInst("fcmp", predicate, lhs, rhs, flags), name)

    def cast(self, opcode: str, value: Value, type: Type, flags=(), name=None) -> Instruction:
        return self.insert(CastInst(opcode, value, type, flags), name)

    def select(self, condition: Value, if_true: Value, if_false: Value, flags=(), name=None) -> Instruction:
        return self.insert(SelectInst(condition, if_true, if_false, flags), name)

    def phi(self, type: Type, incoming=(), flags=(), name=None) -> PhiInst:
        return self.insert(PhiInst(type, incoming, flags), name)

    def freeze(self, value: Value, name=None) -> Instruction:
        return self.insert(FreezeInst(value), name)

    # ---- control flow -------------------------------------------------------------------

    def br(self, destination: Block) -> Instruction:
        return self.insert(BranchInst([destination]))

    def cond_br(self, condition: Value, if_true: Block, if_false: Block) -> Instruction:
        return self.insert(BranchInst([condition, if_true, if_false]))

    def switch(self, value: Value, default: Block, cases=()) -> SwitchInst:
        return self.insert(SwitchInst(value, default, cases))

    def ret(self, value: Value | None = None) -> Instruction:
        return self.insert(ReturnInst(value))

    def unreachable(self) -> Instruction:
        return self.insert(UnreachableInst())

    def call(self, callee: Function | Value, args, function_type=None, name=None, **options) -> Instruction:
        """Call a `Function` (its type is known) or any pointer value given `function_type`;
        `options` are CallInst's (tail, cc, ret_attrs, arg_attrs, fn_attrs, bundles, flags)."""
        if isinstance(callee, Function):
            function_type = function_type or callee.function_type
            callee = GlobalRef(callee.name)
        if function_type is None:
            raise IRTypeError("an indirect call needs its function type")
        return self.insert(CallInst(function_type, callee, list(args), **options), name)

    # ---- memory -------------------------------------------------------------------------

    def alloca(self, type: Type, count: Value | None = None, align: int | None = None, name=None) -> Instruction:
        return self.insert(AllocaInst(type, count, align), name)

    def load(self, type: Type, pointer: Value, align: int | None = None, name=None) -> Instruction:
        return self.insert(LoadInst(type, pointer, align=align), name)

    def store(self, value: Value, pointer: Value, align: int | None = None) -> Instruction:
        return self.insert(StoreInst(value, pointer, align=align))

    def gep(self, source_type: Type, pointer: Value, indices, flags=(), name=None) -> Instruction:
        return self.insert(GetElementPtrInst(source_type, pointer, list(indices), flags), name)

    # ---- aggregates and vectors ---------------------------------------------------------

    def extractvalue(self, aggregate: Value, indices, name=None) -> Instruction:
        return self.insert(ExtractValueInst(aggregate, indices), name)

    def insertvalue(self, aggregate: Value, value: Value, indices, name=None) -> Instruction:
        return self.insert(InsertValueInst(aggregate, value, indices), name)

    def extractelement(self, vector: Value, index: Value, name=None) -> Instruction:
        return self.insert(ExtractElementInst(vector, index), name)

    def insertelement(self, vector: Value, value: Value, index: Value, name=None) -> Instruction:
        return self.insert(InsertElementInst(vector, value, index), name)

    def shufflevector(self, first: Value, second: Value, mask, name=None) -> Instruction:
        return self.insert(ShuffleVectorInst(first, second, mask), name)
