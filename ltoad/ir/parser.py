"""The base of the IR readers: token cursor, types, constants, typed values, attributes, metadata.

Methods follow one convention: `parse_x` reads an x or raises a located `IRParseError`;
`parse_optional_x` returns None (consuming nothing) when no x starts here.
Locals (`%x`) are resolved by `resolve_local`, which the function reader provides.
"""

import re
from typing import NoReturn

from ltoad.ir.instructions import gep_result_type
from ltoad.ir.lexer import EOF, Lexer, unquote
from ltoad.ir.symbols import Symbols
from ltoad.ir.types import (
    FLOAT_KINDS,
    I1,
    METADATA,
    PTR,
    ArrayType,
    FloatType,
    FunctionType,
    IntType,
    PointerType,
    SimpleType,
    StructType,
    TargetExtType,
    Type,
    VectorType,
)
from ltoad.ir.values import (
    CAST_OPCODES,
    KEYWORD_CONSTANTS,
    BlockAddress,
    ConstantAggregate,
    ConstantExpr,
    ConstantFloat,
    ConstantInt,
    ConstantSplat,
    ConstantString,
    GlobalWrapper,
    InlineAsm,
    MetadataValue,
    Value,
    ValueAsMetadata,
)

_INT = re.compile(r"-?[0-9]+")
_INT_TYPE = re.compile(r"i([0-9]+)")
_SIMPLE_TYPES: dict[str, Type] = {
    **{kind: FloatType(kind) for kind in FLOAT_KINDS},
    **{name: SimpleType(name) for name in ("void", "label", "metadata", "token", "x86_amx")},
}
_OPENERS = {"(": ")", "[": "]", "{": "}"}
BINARY_CONSTEXPRS = frozenset("add sub mul shl xor and or lshr ashr".split())
CONSTEXPR_OPCODES = (
    CAST_OPCODES
    | BINARY_CONSTEXPRS
    | {"getelementptr", "extractelement", "insertelement", "shufflevector"}
)
VALUE_KEYWORDS = (
    frozenset(KEYWORD_CONSTANTS)
    | CONSTEXPR_OPCODES
    | {"true", "false", "splat", "blockaddress", "dso_local_equivalent", "no_cfi", "asm"}
)
INSTRUCTION_FLAGS = frozenset(
    "nuw nsw exact disjoint nneg samesign inbounds nusw "
    "fast nnan ninf nsz arcp contract afn reassoc".split()
)
ASM_FLAGS = ("sideeffect", "alignstack", "inteldialect", "unwind")
_ATTRIBUTES_WITH_INT = frozenset(("align", "cc", "addrspace"))


class Parser:
    """Reads types, constants and typed values from the tokens of text[start:end]."""

    def __init__(self, text: str, start: int = 0, end: int | None = None, symbols: Symbols | None = None):
        self.lexer = Lexer(text, start, end)
        self.tokens = self.lexer.tokens
        self.pos = 0
        self.symbols = symbols if symbols is not None else Symbols()

    # ---- cursor -------------------------------------------------------------------------

    def peek(self, ahead: int = 0) -> str:
        index = self.pos + ahead
        return self.tokens[index] if index < len(self.tokens) else EOF

    def next(self) -> str:
        token = self.tokens[self.pos]
        if token == EOF:
            self.error("unexpected end of input")
        self.pos += 1
        return token

    def accept(self, token: str) -> bool:
        if self.tokens[self.pos] == token:
            self.pos += 1
            return True
        return False

    def expect(self, token: str, what: str | None = None) -> None:
        if self.tokens[self.pos] != token:
            self.error(f"expected {what or repr(token)}")
        self.pos += 1

    def error(self, message: str, index: int | None = None) -> NoReturn:
        self.lexer.error(message, self.pos if index is None else index)

    def source_since(self, start: int) -> str:
        """The exact text of the tokens read since token index `start`."""
        return self.lexer.source(start, self.pos)

    def at_metadata_suffix(self) -> bool:
        """True at `, !name ...`: the attachments that end an instruction."""
        return self.tokens[self.pos] == "," and self.peek(1)[:1] == "!"

    def parse_int(self, what: str = "integer") -> int:
        token = self.tokens[self.pos]
        if not _INT.fullmatch(token):
            self.error(f"expected {what}")
        self.pos += 1
        return int(token)

    def parse_string(self, what: str = "string") -> str:
        """A quoted string token, returned as written (quotes included)."""
        token = self.tokens[self.pos]
        if token[:1] != '"' or token[-1:] != '"' or len(token) < 2:
            self.error(f"expected {what}")
        self.pos += 1
        return token

    def parse_group(self) -> None:
        """Skip a balanced (...), [...] or {...} group starting at the current token."""
        closer = _OPENERS.get(self.tokens[self.pos])
        if closer is None:
            self.error("expected '('")
        stack = [closer]
        self.pos += 1
        while stack:
            token = self.next()
            if token in _OPENERS:
                stack.append(_OPENERS[token])
            elif token in (")", "]", "}"):
                if token != stack.pop():
                    self.error(f"unbalanced '{token}'", self.pos - 1)

    def parse_comma_list(self, closer: str, parse_item) -> list:
        """Items separated by commas, up to `closer` (consumed); the opener is already read."""
        items = []
        if self.accept(closer):
            return items
        items.append(parse_item())
        while self.accept(","):
            items.append(parse_item())
        self.expect(closer)
        return items

    def parse_parameter_list(self, parse_item) -> tuple[list, bool]:
        """`a, b, ...)` after a `(`: the items, and whether `...` ends the list."""
        items = self.parse_comma_list(")", lambda: None if self.accept("...") else parse_item())
        vararg = bool(items) and items[-1] is None
        if any(item is None for item in items[:-1]):
            self.error("'...' must end the list", self.pos - 1)
        return [item for item in items if item is not None], vararg

    def parse_typed_values(self, closer: str) -> list[Value]:
        """`ty v, ty v` up to `closer` (consumed)."""
        return self.parse_comma_list(closer, self.parse_typed_value)

    def parse_flags(self, allowed=INSTRUCTION_FLAGS) -> list[str]:
        flags = []
        while self.tokens[self.pos] in allowed:
            flags.append(self.tokens[self.pos])
            self.pos += 1
        return flags

    # ---- types --------------------------------------------------------------------------

    def parse_type(self, what: str = "type") -> Type:
        result = self.parse_optional_type()
        if result is None:
            self.error(f"expected {what}")
        return result

    def parse_optional_type(self) -> Type | None:
        base = self._parse_optional_base_type()
        if base is not None and self.tokens[self.pos] == "(":
            return self._parse_function_type(base)
        return base

    def _parse_optional_base_type(self) -> Type | None:
        token = self.tokens[self.pos]
        simple = _SIMPLE_TYPES.get(token)
        if simple is not None:
            self.pos += 1
            return simple
        match = _INT_TYPE.fullmatch(token)
        if match:
            self.pos += 1
            return IntType(int(match.group(1)))
        reader = self._TYPE_READERS.get(token) or self._TYPE_READERS.get(token[:1])
        return reader(self) if reader is not None else None

    def _parse_pointer_type(self) -> Type:
        self.pos += 1
        if self.accept("addrspace"):
            self.expect("(")
            space = self.parse_int("address space")
            self.expect(")")
            return PointerType(space)
        return PTR

    def _parse_array_type(self) -> Type:
        self.expect("[")
        count = self.parse_int("array size")
        self.expect("x")
        element = self.parse_type()
        self.expect("]")
        return ArrayType(count, element)

    def _parse_angle_type(self) -> Type:
        self.expect("<")
        if self.tokens[self.pos] == "{":
            body = self._parse_struct_type()
            self.expect(">")
            return StructType(body.elements, packed=True)
        scalable = self.accept("vscale")
        if scalable:
            self.expect("x")
        count = self.parse_int("vector size")
        self.expect("x")
        element = self.parse_type()
        self.expect(">")
        return VectorType(count, element, scalable)

    def _parse_struct_type(self) -> StructType:
        self.expect("{")
        return StructType(tuple(self.parse_comma_list("}", self.parse_type)))

    def _parse_named_type(self) -> Type:
        token = self.next()
        if len(token) < 2:
            self.error("expected type", self.pos - 1)
        return self.symbols.named_type(unquote(token[1:]))

    def _parse_target_type(self) -> Type:
        self.pos += 1
        self.expect("(")
        name = unquote(self.parse_string("target type name"))
        types, ints = [], []
        while self.accept(","):
            if _INT.fullmatch(self.tokens[self.pos]):
                ints.append(self.parse_int())
            else:
                types.append(self.parse_type())
        self.expect(")")
        return TargetExtType(name, tuple(types), tuple(ints))

    _TYPE_READERS = {
        "ptr": _parse_pointer_type,
        "target": _parse_target_type,
        "[": _parse_array_type,
        "<": _parse_angle_type,
        "{": _parse_struct_type,
        "%": _parse_named_type,
    }

    def _parse_function_type(self, ret: Type) -> FunctionType:
        self.expect("(")
        params, vararg = self.parse_parameter_list(self.parse_type)
        return FunctionType(ret, tuple(params), vararg)

    # ---- values -------------------------------------------------------------------------

    def resolve_local(self, token: str, type: Type) -> Value:
        self.error("local values are only allowed inside a function body", self.pos - 1)

    def parse_typed_value(self) -> Value:
        return self.parse_value(self.parse_type())

    def parse_value(self, type: Type) -> Value:
        token = self.tokens[self.pos]
        sigil = token[:1]
        if sigil == "%" and len(token) > 1:
            self.pos += 1
            return self.resolve_local(token, type)
        if sigil == "@" and len(token) > 1:
            self.pos += 1
            return self.symbols.global_ref(unquote(token[1:]), type)
        if type == METADATA:
            return self.parse_metadata_operand()
        return self.parse_constant(type)

    def parse_constant(self, type: Type) -> Value:
        token = self.tokens[self.pos]
        if token[:1] in "0123456789-+":
            return self._parse_number(type)
        keyword = KEYWORD_CONSTANTS.get(token)
        if keyword is not None:
            self.pos += 1
            return keyword(type)
        reader = self._CONSTANT_READERS.get(token)
        if reader is not None:
            return reader(self, type)
        if token.startswith('c"'):
            self.pos += 1
            return ConstantString(type, token[2:-1])
        if token in CONSTEXPR_OPCODES:
            return self._parse_constant_expr(type)
        self.error("expected value")

    def _parse_number(self, type: Type) -> Value:
        token = self.next()
        if isinstance(type, FloatType):
            return ConstantFloat(type, token)
        if not isinstance(type, IntType) or not _INT.fullmatch(token):
            self.error(f"invalid constant for type {type}", self.pos - 1)
        return ConstantInt(type, int(token))

    def _parse_bool(self, type: Type) -> Value:
        if type != I1:
            self.error(f"invalid constant for type {type}")
        return ConstantInt(type, int(self.next() == "true"))

    def _parse_array_constant(self, type: Type) -> Value:
        self.pos += 1
        return ConstantAggregate(type, self.parse_typed_values("]"))

    def _parse_struct_constant(self, type: Type) -> Value:
        self.pos += 1
        return ConstantAggregate(type, self.parse_typed_values("}"))

    def _parse_angle_constant(self, type: Type) -> Value:
        self.pos += 1
        if self.accept("{"):
            elements = self.parse_typed_values("}")
            self.expect(">")
        else:
            elements = self.parse_typed_values(">")
        return ConstantAggregate(type, elements)

    def _parse_splat(self, type: Type) -> Value:
        self.pos += 1
        self.expect("(")
        element = self.parse_typed_value()
        self.expect(")")
        return ConstantSplat(type, element)

    def _parse_block_address(self, type: Type) -> Value:
        self.pos += 1
        self.expect("(")
        function = self.parse_value(PTR)
        self.expect(",")
        block = self.next()
        if block[:1] != "%" or len(block) < 2:
            self.error("expected block label", self.pos - 1)
        self.expect(")")
        return BlockAddress(function, block[1:], type)

    def _parse_global_wrapper(self, type: Type) -> Value:
        keyword = self.next()
        return GlobalWrapper(keyword, self.parse_value(type))

    def _parse_inline_asm(self, type: Type) -> Value:
        self.pos += 1
        flags = self.parse_flags(ASM_FLAGS)
        asm = self.parse_string("inline asm string")
        self.expect(",")
        return InlineAsm(flags, asm, self.parse_string("inline asm constraints"))

    _CONSTANT_READERS = {
        "true": _parse_bool,
        "false": _parse_bool,
        "[": _parse_array_constant,
        "{": _parse_struct_constant,
        "<": _parse_angle_constant,
        "splat": _parse_splat,
        "blockaddress": _parse_block_address,
        "dso_local_equivalent": _parse_global_wrapper,
        "no_cfi": _parse_global_wrapper,
        "asm": _parse_inline_asm,
    }

    def _parse_constant_expr(self, type: Type) -> Value:
        opcode = self.next()
        flags = self._parse_constexpr_flags()
        self.expect("(")
        if opcode == "getelementptr":
            return self._parse_gep_expr(flags)
        if opcode in CAST_OPCODES:
            return self._parse_cast_expr(opcode, flags)
        return self._parse_operator_expr(opcode, flags)

    def _parse_constexpr_flags(self) -> list[str]:
        flags = []
        while True:
            flags += self.parse_flags()
            if self.tokens[self.pos] != "inrange":
                return flags
            start = self.pos
            self.pos += 1
            self.parse_group()
            flags.append(self.source_since(start))

    def _parse_gep_expr(self, flags) -> Value:
        source = self.parse_type()
        self.expect(",")
        operands = self.parse_typed_values(")")
        if not operands:
            self.error("expected pointer operand")
        result = gep_result_type(operands[0], operands[1:])
        return ConstantExpr(result, "getelementptr", operands, flags, source)

    def _parse_cast_expr(self, opcode: str, flags) -> Value:
        value = self.parse_typed_value()
        self.expect("to")
        dest = self.parse_type()
        self.expect(")")
        return ConstantExpr(dest, opcode, [value], flags)

    def _parse_operator_expr(self, opcode: str, flags) -> Value:
        start = self.pos
        operands = self.parse_typed_values(")")
        if not operands:
            self.error("expected operand", start)
        result = operands[0].type
        if opcode in ("extractelement", "shufflevector") and not isinstance(result, VectorType):
            self.error(f"{opcode} needs a vector operand", start)
        if opcode == "extractelement":
            result = result.element
        elif opcode == "shufflevector":
            mask = operands[-1].type
            count = mask.count if isinstance(mask, VectorType) else result.count
            result = VectorType(count, result.element, result.scalable)
        return ConstantExpr(result, opcode, operands, flags)

    # ---- metadata -----------------------------------------------------------------------

    def parse_metadata_text(self) -> str:
        """One metadata operand as written: `!5`, `!"s"`, `!{...}`, `!DIExpression(...)`."""
        start = self.pos
        token = self.next()
        if token[:1] != "!":
            self.error("expected metadata", start)
        if token == "!" and self.tokens[self.pos] != "{":
            self.error("expected metadata")
        if token == "!" or self.tokens[self.pos] == "(":
            self.parse_group()
            return self.source_since(start)
        return token

    def parse_metadata_operand(self) -> Value:
        if self.tokens[self.pos][:1] == "!":
            return MetadataValue(self.parse_metadata_text())
        return ValueAsMetadata(self.parse_typed_value())

    # ---- attributes ---------------------------------------------------------------------

    def at_attribute(self, stop=frozenset()) -> bool:
        token = self.tokens[self.pos]
        if token[:1] == '"':
            return True
        if token[:1] == "#":
            return token[1:].isdigit()
        if not token.isidentifier() or token in stop:
            return False
        return token not in _SIMPLE_TYPES and token not in ("ptr", "target") and not _INT_TYPE.fullmatch(token)

    def parse_attributes(self, stop=frozenset()) -> list[str]:
        """Attribute texts as written (`noundef`, `align 8`, `captures(none)`, `#3`)."""
        attributes = []
        while self.at_attribute(stop):
            attributes.append(self.parse_attribute())
        return attributes

    def parse_attribute(self) -> str:
        if not self.at_attribute():
            self.error("expected attribute")
        start = self.pos
        token = self.next()
        following = self.tokens[self.pos]
        if token[:1] == '"':
            if self.accept("="):
                self.parse_string("attribute value")
        elif following == "(":
            self.parse_group()
        elif token in _ATTRIBUTES_WITH_INT and _INT.fullmatch(following):
            self.pos += 1
        return self.source_since(start)
