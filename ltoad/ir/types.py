"""LLVM types: integers, floats, pointers, vectors, arrays, structs, functions and the rest.

Types are immutable values compared by structure, except named structs, which are compared by
identity (one object per name in a module) so that recursive definitions work.
`str(type)` is LLVM's spelling.
"""

from dataclasses import dataclass, field
from functools import cached_property

from ltoad.diagnostics import LtoadError
from ltoad.ir.lexer import quote

FLOAT_KINDS = ("half", "bfloat", "float", "double", "x86_fp80", "fp128", "ppc_fp128")


class IRTypeError(LtoadError):
    """An operation that does not fit the types of its operands."""


class Type:
    """Base of all types; `text` (also `str()`) is the LLVM spelling, computed once."""

    @cached_property
    def text(self) -> str:
        return self.spell()

    def spell(self) -> str:
        raise NotImplementedError

    def __str__(self) -> str:
        return self.text

    @property
    def scalar(self) -> "Type":
        """The element type of a vector, or the type itself."""
        return self

    def is_integer(self) -> bool:
        return isinstance(self.scalar, IntType)

    def is_float(self) -> bool:
        return isinstance(self.scalar, FloatType)

    def is_pointer(self) -> bool:
        return isinstance(self.scalar, PointerType)


@dataclass(frozen=True, eq=True)
class IntType(Type):
    bits: int

    def spell(self) -> str:
        return f"i{self.bits}"


@dataclass(frozen=True, eq=True)
class FloatType(Type):
    kind: str  # one of FLOAT_KINDS

    def spell(self) -> str:
        return self.kind


@dataclass(frozen=True, eq=True)
class PointerType(Type):
    addrspace: int = 0

    def spell(self) -> str:
        return f"ptr addrspace({self.addrspace})" if self.addrspace else "ptr"


@dataclass(frozen=True, eq=True)
class SimpleType(Type):
    """void, label, metadata, token, x86_amx: types without parameters."""

    name: str

    def spell(self) -> str:
        return self.name


@dataclass(frozen=True, eq=True)
class VectorType(Type):
    count: int
    element: Type
    scalable: bool = False

    def spell(self) -> str:
        prefix = "vscale x " if self.scalable else ""
        return f"<{prefix}{self.count} x {self.element}>"

    @property
    def scalar(self) -> Type:
        return self.element


@dataclass(frozen=True, eq=True)
class ArrayType(Type):
    count: int
    element: Type

    def spell(self) -> str:
        return f"[{self.count} x {self.element}]"


@dataclass(frozen=True, eq=True)
class StructType(Type):
    """A literal struct `{ i32, ptr }`, or `<{ ... }>` when packed."""

    elements: tuple[Type, ...]
    packed: bool = False

    def spell(self) -> str:
        inner = "{ " + ", ".join(map(str, self.elements)) + " }" if self.elements else "{}"
        return f"<{inner}>" if self.packed else inner


@dataclass(eq=False)
class NamedStructType(Type):
    """`%name`; `body` is None while opaque or not yet known."""

    name: str
    body: StructType | None = field(default=None, repr=False)

    def spell(self) -> str:
        return "%" + quote(self.name)


@dataclass(frozen=True, eq=True)
class FunctionType(Type):
    ret: Type
    params: tuple[Type, ...]
    vararg: bool = False

    def spell(self) -> str:
        params = [str(p) for p in self.params] + (["..."] if self.vararg else [])
        return f"{self.ret} ({', '.join(params)})"


@dataclass(frozen=True, eq=True)
class TargetExtType(Type):
    """`target("name", types..., ints...)`."""

    name: str
    type_params: tuple[Type, ...] = ()
    int_params: tuple[int, ...] = ()

    def spell(self) -> str:
        params = [f'"{self.name}"'] + [str(t) for t in self.type_params]
        return f"target({', '.join(params + [str(i) for i in self.int_params])})"


VOID = SimpleType("void")
LABEL = SimpleType("label")
METADATA = SimpleType("metadata")
TOKEN = SimpleType("token")
I1 = IntType(1)
I8 = IntType(8)
I32 = IntType(32)
I64 = IntType(64)
FLOAT = FloatType("float")
DOUBLE = FloatType("double")
PTR = PointerType()


def struct_body(ty: Type) -> StructType:
    """The literal struct behind a struct type, named or not."""
    if isinstance(ty, NamedStructType):
        if ty.body is None:
            raise IRTypeError(f"struct type {ty} has no known body")
        return ty.body
    if not isinstance(ty, StructType):
        raise IRTypeError(f"{ty} is not a struct type")
    return ty


def member_type(aggregate: Type, index: int) -> Type:
    """The type of member `index` of a struct or array (extractvalue/insertvalue)."""
    if isinstance(aggregate, ArrayType):
        if not 0 <= index < aggregate.count:
            raise IRTypeError(f"index {index} out of range for {aggregate}")
        return aggregate.element
    elements = struct_body(aggregate).elements
    if not 0 <= index < len(elements):
        raise IRTypeError(f"index {index} out of range for {aggregate}")
    return elements[index]

