"""SSA values with use lists, and the constants of LLVM IR.

Every `User` (instruction, constant expression, aggregate, debug record) records each operand as
a `Use`; every `Value` keeps the uses that point at it, so `value.users` and
`value.replace_all_uses_with(other)` are cheap. Uses by debug records are kept apart
(`debug_uses`), as in LLVM, so that they never count as real uses.
"""

import math
import struct

from ltoad.ir.lexer import unquote
from ltoad.ir.types import (
    I1,
    METADATA,
    PTR,
    FloatType,
    IRTypeError,
    Type,
    VectorType,
)


class Use:
    """Operand slot `index` of `user`."""

    __slots__ = ("user", "index")

    def __init__(self, user: "User", index: int):
        self.user = user
        self.index = index

    @property
    def value(self) -> "Value":
        return self.user.operand(self.index)


class Value:
    """Anything an operand can refer to. `name` is None for unnamed (numbered) values."""

    def __init__(self, type: Type, name: str | None = None):
        self.type = type
        self.name = name
        self._uses: dict[Use, None] = {}
        self._debug_uses: dict[Use, None] = {}

    def __repr__(self) -> str:
        label = f" %{self.name}" if self.name is not None else ""
        return f"<{type(self).__name__}{label}: {self.type}>"

    @property
    def uses(self) -> list[Use]:
        return list(self._uses)

    @property
    def debug_uses(self) -> list[Use]:
        return list(self._debug_uses)

    @property
    def users(self) -> list["User"]:
        """Distinct users, in the order their first use was made."""
        return list(dict.fromkeys(use.user for use in self._uses))

    def has_uses(self) -> bool:
        return bool(self._uses)

    def replace_all_uses_with(self, new: "Value") -> None:
        """Point every use (debug uses included) of this value at `new`."""
        if new is self:
            return
        for use in list(self._uses) + list(self._debug_uses):
            use.user.set_operand(use.index, new)


class User(Value):
    """A value with operands. Subclasses set `debug_user` when their uses are debug-only."""

    debug_user = False

    def __init__(self, type: Type, operands=(), name: str | None = None):
        super().__init__(type, name)
        self._operands: list[Value] = []
        self._slots: list[Use] = []
        for operand in operands:
            self.append_operand(operand)

    @property
    def operands(self) -> tuple[Value, ...]:
        return tuple(self._operands)

    def operand(self, index: int) -> Value:
        return self._operands[index]

    def _use_table(self, value: Value) -> dict[Use, None]:
        return value._debug_uses if self.debug_user else value._uses

    def append_operand(self, value: Value) -> int:
        use = Use(self, len(self._operands))
        self._operands.append(value)
        self._slots.append(use)
        self._use_table(value)[use] = None
        return use.index

    def set_operand(self, index: int, value: Value) -> None:
        use = self._slots[index]
        del self._use_table(self._operands[index])[use]
        self._operands[index] = value
        self._use_table(value)[use] = None

    def remove_operands(self, start: int, stop: int) -> None:
        """Drop operands start..stop-1; later operands move down."""
        for index in range(start, stop):
            del self._use_table(self._operands[index])[self._slots[index]]
        del self._operands[start:stop]
        del self._slots[start:stop]
        for index in range(start, len(self._slots)):
            self._slots[index].index = index

    def drop_operands(self) -> None:
        """Forget every operand (before deleting this user)."""
        self.remove_operands(0, len(self._operands))


class Constant(Value):
    """Base of constants: values with no name whose text does not depend on slot numbers."""


class ConstantUser(User, Constant):
    """A constant built from other constants (aggregates, expressions)."""


class ConstantInt(Constant):
    def __init__(self, type: Type, value: int):
        super().__init__(type)
        self.value = value


class ConstantFloat(Constant):
    """A floating-point constant; `text` is kept exactly as written (decimal or hex)."""

    def __init__(self, type: Type, text: str):
        super().__init__(type)
        self.text = text

    @property
    def value(self) -> float:
        return float_from_text(self.text)

    @classmethod
    def from_value(cls, type: Type, value: float) -> "ConstantFloat":
        return cls(type, float_text(type, value))


class ConstantKeyword(Constant):
    """A constant spelled by one keyword; subclasses fix the keyword."""

    keyword = ""


class NullPointer(ConstantKeyword):
    keyword = "null"


class NoneToken(ConstantKeyword):
    keyword = "none"


class Undef(ConstantKeyword):
    keyword = "undef"


class Poison(ConstantKeyword):
    keyword = "poison"


class ZeroInitializer(ConstantKeyword):
    keyword = "zeroinitializer"


KEYWORD_CONSTANTS = {c.keyword: c for c in (NullPointer, NoneToken, Undef, Poison, ZeroInitializer)}


class ConstantString(Constant):
    """`c"..."`: `text` is the escaped contents between the quotes."""

    def __init__(self, type: Type, text: str):
        super().__init__(type)
        self.text = text

    @property
    def data(self) -> bytes:
        return unquote('"' + self.text + '"').encode("latin-1")


class ConstantAggregate(ConstantUser):
    """An array `[...]`, vector `<...>` or struct `{ ... }` constant; elements are operands."""

    @property
    def elements(self) -> tuple[Value, ...]:
        return self.operands


class ConstantSplat(ConstantUser):
    """`splat (ty v)`: a vector with every lane equal to `element`."""

    def __init__(self, type: Type, element: Value):
        super().__init__(type, [element])

    @property
    def element(self) -> Value:
        return self.operand(0)


class ConstantExpr(ConstantUser):
    """A constant expression. `kind` is "gep", "cast" or "op" (operands listed with types)."""

    def __init__(self, type: Type, opcode: str, operands, flags=(), source_type=None):
        super().__init__(type, operands)
        self.opcode = opcode
        self.flags = list(flags)
        self.source_type = source_type

    @property
    def kind(self) -> str:
        if self.opcode == "getelementptr":
            return "gep"
        return "cast" if self.opcode in CAST_OPCODES else "op"


class GlobalRef(Constant):
    """A reference to a module-level symbol `@name` (function, variable, alias, ifunc)."""

    def __init__(self, name: str, type: Type = PTR):
        super().__init__(type)
        self.name = name


class BlockAddress(ConstantUser):
    """`blockaddress(@f, %bb)`; `block` is the label as written after `%`."""

    def __init__(self, function: Value, block: str, type: Type = PTR):
        super().__init__(type, [function])
        self.block = block

    @property
    def function(self) -> Value:
        return self.operand(0)


class GlobalWrapper(ConstantUser):
    """`dso_local_equivalent @f` or `no_cfi @f`."""

    def __init__(self, keyword: str, target: Value):
        super().__init__(target.type, [target])
        self.keyword = keyword

    @property
    def target(self) -> Value:
        return self.operand(0)


class InlineAsm(Constant):
    """The callee `asm [sideeffect] [alignstack] [inteldialect] [unwind] "code", "constraints"`."""

    def __init__(self, flags, asm: str, constraints: str):
        super().__init__(PTR)
        self.flags = list(flags)
        self.asm = asm
        self.constraints = constraints


class MetadataValue(Constant):
    """A metadata operand kept as its text: `!5`, `!"str"`, `!{}`, `!DIExpression()`."""

    def __init__(self, text: str):
        super().__init__(METADATA)
        self.text = text


class ValueAsMetadata(User):
    """`metadata <ty> <value>`: an ordinary value passed where metadata is expected."""

    def __init__(self, value: Value):
        super().__init__(METADATA, [value])

    @property
    def value(self) -> Value:
        return self.operand(0)


class ForwardRef(Value):
    """A local used before its definition; replaced when the definition is read."""

    def __init__(self, type: Type, token: str):
        super().__init__(type)
        self.token = token


CAST_OPCODES = frozenset(
    "trunc zext sext fptrunc fpext fptoui fptosi uitofp sitofp ptrtoint ptrtoaddr inttoptr "
    "bitcast addrspacecast".split()
)


def bool_type_for(operand_type: Type) -> Type:
    """i1, or a vector of i1 shaped like `operand_type`."""
    if isinstance(operand_type, VectorType):
        return VectorType(operand_type.count, I1, operand_type.scalable)
    return I1


def x87_extended_hex(value: float) -> str:
    """The 80-bit x87 extended encoding of a double's value: sign, 15-bit exponent, 64-bit
    significand with its explicit integer bit, as 20 hex digits."""
    sign = 1 if math.copysign(1.0, value) < 0 else 0
    if math.isnan(value):
        exponent, significand = 0x7FFF, 0xC000000000000000
    elif math.isinf(value):
        exponent, significand = 0x7FFF, 0x8000000000000000
    elif value == 0.0:
        exponent, significand = 0, 0
    else:
        mantissa, power = math.frexp(abs(value))      # abs(value) = mantissa * 2**power
        exponent, significand = power - 1 + 16383, int(mantissa * 2**64)
    return f"{(sign << 15) | exponent:04X}{significand:016X}"


def float_text(type: Type, value: float) -> str:
    """LLVM's spelling of a float/double/half constant of the given value."""
    if not isinstance(type, FloatType):
        raise IRTypeError(f"{type} is not a floating-point type")
    if type.kind == "half":
        return "0xH" + struct.pack(">e", value).hex().upper()
    if type.kind == "x86_fp80":
        return "0xK" + x87_extended_hex(value)
    if type.kind not in ("float", "double"):
        raise IRTypeError(f"cannot spell a {type} constant from a Python float")
    if type.kind == "float":
        value = struct.unpack("<f", struct.pack("<f", value))[0]
    decimal = f"{value:.6e}"
    if math.isfinite(value) and float(decimal) == value:
        return decimal
    return "0x" + struct.pack(">d", value).hex().upper()


def float_from_text(text: str) -> float:
    """The value of a float constant spelled in decimal or in one of LLVM's hex forms."""
    if not text.startswith(("0x", "-0x")):
        return float(text)
    digits = text[2:]
    if digits[0] in "0123456789ABCDEFabcdef":
        return struct.unpack(">d", bytes.fromhex(digits.rjust(16, "0")))[0]
    kind, digits = digits[0], digits[1:]
    if kind == "H":
        return struct.unpack(">e", bytes.fromhex(digits))[0]
    if kind == "R":
        return struct.unpack(">f", bytes.fromhex(digits + "0000"))[0]
    if kind == "K":
        return _x87_value(int(digits, 16))
    raise IRTypeError(f"cannot evaluate float constant {text}")


def _x87_value(bits: int) -> float:
    sign = -1.0 if bits >> 79 else 1.0
    exponent = (bits >> 64) & 0x7FFF
    mantissa = bits & ((1 << 64) - 1)
    if exponent == 0x7FFF:
        return sign * math.inf if mantissa & ((1 << 63) - 1) == 0 else math.nan
    return sign * math.ldexp(mantissa, max(exponent, 1) - 16383 - 63)

