"""Functions, their arguments and basic blocks.

A `Function` keeps the header as written: `prefix` holds the words before the return type
(linkage, visibility, calling convention, return attributes) and `attributes` the items between
the parameter list and the metadata (`local_unnamed_addr`, `#0`, `personality ptr @p`, ...).
A function without blocks is a declaration.
"""

from collections.abc import Iterator

from ltoad.ir.instructions import Instruction, PhiInst
from ltoad.ir.printer import print_function
from ltoad.ir.types import LABEL, FunctionType, Type
from ltoad.ir.values import Value


class Argument(Value):
    """A formal parameter; `attrs` are its attribute texts (`noundef`, `align 8`)."""

    def __init__(self, type: Type, name: str | None = None, attrs=()):
        super().__init__(type, name)
        self.attrs: list[str] = list(attrs)
        self.function: "Function | None" = None


class Block(Value):
    """A basic block: a label value holding a list of instructions ending in a terminator."""

    def __init__(self, name: str | None = None):
        super().__init__(LABEL, name)
        self.parent: "Function | None" = None
        self.instructions: list[Instruction] = []

    def append(self, instruction: Instruction) -> Instruction:
        return self.insert(len(self.instructions), instruction)

    def insert(self, position: int, instruction: Instruction) -> Instruction:
        instruction.parent = self
        self.instructions.insert(position, instruction)
        return instruction

    @property
    def terminator(self) -> Instruction | None:
        last = self.instructions[-1] if self.instructions else None
        return last if last is not None and last.is_terminator else None

    @property
    def successors(self) -> list["Block"]:
        terminator = self.terminator
        return list(dict.fromkeys(terminator.successors)) if terminator else []

    @property
    def predecessors(self) -> list["Block"]:
        """Distinct blocks whose terminator branches here."""
        blocks = [user.parent for user in self.users if isinstance(user, Instruction) and user.is_terminator]
        return list(dict.fromkeys(blocks))

    @property
    def phis(self) -> list[PhiInst]:
        result = []
        for instruction in self.instructions:
            if not isinstance(instruction, PhiInst):
                break
            result.append(instruction)
        return result


class Function:
    """A function definition (with blocks) or declaration (without)."""

    def __init__(self, name: str, return_type: Type, args=(), *, vararg=False, prefix=(), attributes=()):
        self.name = name
        self.return_type = return_type
        self.args: list[Argument] = []
        self.vararg = vararg
        self.prefix: list[str] = list(prefix)
        self.attributes: list[str] = list(attributes)
        self.metadata: list[tuple[str, str]] = []
        self.blocks: list[Block] = []
        self.uselistorder: list[str] = []
        for arg in args:
            self.add_argument(arg)

    def __repr__(self) -> str:
        return f"<Function @{self.name}: {self.function_type}>"

    def __str__(self) -> str:
        return print_function(self)

    def add_argument(self, arg: Argument) -> Argument:
        arg.function = self
        self.args.append(arg)
        return arg

    def add_block(self, name: str | None = None) -> Block:
        return self.append_block(Block(name))

    def append_block(self, block: Block) -> Block:
        block.parent = self
        self.blocks.append(block)
        return block

    @property
    def function_type(self) -> FunctionType:
        return FunctionType(self.return_type, tuple(a.type for a in self.args), self.vararg)

    @property
    def is_declaration(self) -> bool:
        return not self.blocks

    @property
    def entry(self) -> Block:
        return self.blocks[0]

    def instructions(self) -> Iterator[Instruction]:
        for block in self.blocks:
            yield from block.instructions

    @property
    def attribute_groups(self) -> list[int]:
        """The numbers N of the `#N` attribute groups in the header."""
        return [int(item[1:]) for item in self.attributes if item.startswith("#")]

    @property
    def personality(self) -> str | None:
        """The personality as written (`ptr @__gxx_personality_v0`), or None."""
        for item in self.attributes:
            if item.startswith("personality "):
                return item[len("personality ") :]
        return None
