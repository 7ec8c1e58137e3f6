"""Reading a whole function: header, arguments, blocks, and the locals of its body.

Locals and blocks may be used before they are defined (phis, forward branches): a use creates a
`ForwardRef` (or an empty `Block`) that the definition replaces; anything still undefined at the
closing brace is reported at its first use.
"""

import gc
import re
from collections.abc import Iterator
from contextlib import contextmanager

from ltoad.ir.function import Argument, Block, Function
from ltoad.ir.instruction_parser import InstructionParser
from ltoad.ir.instructions import Instruction
from ltoad.ir.lexer import EOF, unquote
from ltoad.ir.symbols import Symbols
from ltoad.ir.types import VOID, Type
from ltoad.ir.values import ForwardRef, Value

_VALUE_ITEMS = ("prefix", "prologue", "personality")
_STRING_ITEMS = ("section", "partition", "gc")
_USELISTORDER = ("uselistorder", "uselistorder_bb")


def parse_function(text: str, start: int = 0, end: int | None = None, symbols: Symbols | None = None) -> Function:
    """Parse one `define` or `declare` found in text[start:end]."""
    with paused_gc():
        return FunctionParser(text, start, end, symbols).parse_function()


_DEFINE_OR_DECLARE = re.compile(r"^(?:define|declare)\b", re.M)


def parse_header(text: str, start: int, end: int, symbols: Symbols | None = None) -> Function:
    """Parse only the header of the `define` or `declare` at text[start:end] (its first line,
    up to the body's `{`): name, return type, parameters."""
    start = _DEFINE_OR_DECLARE.search(text, start, end).start()   # after any comment lines
    line_end = text.find("\n", start, end)
    line_end = end if line_end < 0 else line_end
    parser = FunctionParser(text, start, line_end, symbols)
    if parser.next() not in ("define", "declare"):
        parser.error("expected 'define' or 'declare'", parser.pos - 1)
    return parser.parse_header()


@contextmanager
def paused_gc() -> Iterator[None]:
    """Pause the cycle collector: a parse allocates many objects and frees no cycles, so the
    collector would only rescan them (it took over half of the parse time)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def local_key(body: str) -> tuple[int | str, str | None]:
    """(key, name) of a local written `body` after `%`: numbered locals have int keys."""
    if body.isdigit():
        return int(body), None
    name = unquote(body)
    return name, name


class FunctionParser(InstructionParser):
    """Reads one function; `locals` maps keys (int for `%5`, str for `%x`) to values."""

    def __init__(self, text: str, start: int = 0, end: int | None = None, symbols: Symbols | None = None):
        super().__init__(text, start, end, symbols)
        self.locals: dict[int | str, Value] = {}
        self.pending: dict[int | str, tuple[Value, int]] = {}
        self.next_slot = 0

    def parse_function(self) -> Function:
        keyword = self.next()
        if keyword not in ("define", "declare"):
            self.error("expected 'define' or 'declare'", self.pos - 1)
        function = self.parse_header()
        if keyword == "define":
            self.parse_body(function)
        if self.tokens[self.pos] != EOF:
            self.error("expected end of function")
        return function

    # ---- header -------------------------------------------------------------------------

    def parse_header(self) -> Function:
        prefix = self.parse_attributes()
        return_type = self.parse_type("return type")
        token = self.next()
        if token[:1] != "@" or len(token) < 2:
            self.error("expected function name", self.pos - 1)
        args, vararg = self._parse_params()
        attributes = self._parse_header_attributes()
        function = Function(unquote(token[1:]), return_type, args, vararg=vararg, prefix=prefix, attributes=attributes)
        while self.tokens[self.pos][:1] == "!":
            name = self.next()[1:]
            function.metadata.append((name, self.parse_metadata_text()))
        return function

    def _parse_params(self) -> tuple[list[Argument], bool]:
        self.expect("(")
        return self.parse_parameter_list(self._parse_param)

    def _parse_param(self) -> Argument:
        type = self.parse_type()
        arg = Argument(type, None, self.parse_attributes())
        token = self.tokens[self.pos]
        if token[:1] == "%" and len(token) > 1:
            self.pos += 1
            self.define_local(token, arg, self.pos - 1)
        else:
            self.define_local(f"%{self.next_slot}", arg, self.pos)
        return arg

    def _parse_header_attributes(self) -> list[str]:
        items = []
        while self.tokens[self.pos] not in ("{", EOF) and self.tokens[self.pos][:1] != "!":
            start = self.pos
            token = self.tokens[self.pos]
            if token in _VALUE_ITEMS:
                self.pos += 1
                self.parse_typed_value()
            elif token in _STRING_ITEMS:
                self.pos += 1
                self.parse_string()
            elif token == "comdat":
                self.pos += 1
                if self.tokens[self.pos] == "(":
                    self.parse_group()
            else:
                self.parse_attribute()
            items.append(self.source_since(start))
        return items

    # ---- body ---------------------------------------------------------------------------

    def parse_body(self, function: Function) -> None:
        self.expect("{")
        block: Block | None = None
        records = []
        while self.tokens[self.pos] != "}":
            token = self.tokens[self.pos]
            if len(token) > 1 and token[-1] == ":":
                self._check_terminated(block)
                self.pos += 1
                block = self._define_block(function, *local_key(token[:-1]))
            elif token.startswith("#dbg_"):
                records.append(self.parse_debug_record())
            elif token in _USELISTORDER:
                function.uselistorder.append(self._parse_uselistorder())
            elif token == EOF:
                self.error("unexpected end of input")
            else:
                if block is None or block.terminator is not None:
                    block = self._define_block(function, self.next_slot, None)
                instruction = self._parse_named_instruction()
                instruction.debug_records, records = records, []
                block.append(instruction)
        if records:
            self.error("debug record is not followed by an instruction")
        self._check_terminated(block)
        self.pos += 1
        self._check_resolved()

    def _check_terminated(self, block: Block | None) -> None:
        if block is not None and block.terminator is None:
            self.error("expected instruction: block has no terminator")

    def _define_block(self, function: Function, key: int | str, name: str | None) -> Block:
        existing = self.locals.get(key)
        if existing is None:
            block = Block(name)
        elif isinstance(existing, Block) and key in self.pending:
            block = existing
            del self.pending[key]
        else:
            self.error(f"redefinition of label '{key}'", self.pos - 1)
        self._bind(key, block)
        return function.append_block(block)

    def _bind(self, key: int | str, value: Value) -> None:
        self.locals[key] = value
        if isinstance(key, int):
            self.next_slot = key + 1

    def _parse_named_instruction(self) -> Instruction:
        token = self.tokens[self.pos]
        if token[:1] != "%":
            instruction = self.parse_instruction()
            if instruction.type != VOID:
                self.define_local(f"%{self.next_slot}", instruction, self.pos - 1)
            return instruction
        name_index = self.pos
        self.pos += 1
        self.expect("=")
        instruction = self.parse_instruction()
        if instruction.type == VOID:
            self.error("cannot name an instruction of type void", name_index)
        self.define_local(token, instruction, name_index)
        return instruction

    def _parse_uselistorder(self) -> str:
        start = self.pos
        if self.next() == "uselistorder":
            self.parse_typed_value()
        else:
            self.next()
            self.expect(",")
            self.next()
        self.expect(",")
        if self.tokens[self.pos] != "{":
            self.error("expected '{'")
        self.parse_group()
        return self.source_since(start)

    # ---- locals -------------------------------------------------------------------------

    def define_local(self, token: str, value: Value, index: int) -> None:
        key, value.name = local_key(token[1:])
        existing = self.locals.get(key)
        if existing is not None:
            if not isinstance(existing, ForwardRef):
                self.error(f"redefinition of '{token}'", index)
            if existing.type != value.type:
                self.error(f"'{token}' is defined as {value.type} but used as {existing.type}", index)
            existing.replace_all_uses_with(value)
            del self.pending[key]
        self._bind(key, value)

    def resolve_local(self, token: str, type: Type) -> Value:
        key, _ = local_key(token[1:])
        value = self.locals.get(key)
        if value is None:
            value = self.locals[key] = ForwardRef(type, token)
            self.pending[key] = (value, self.pos - 1)
        elif value.type is not type and value.type != type:
            self.error(f"'{token}' has type {value.type}, not {type}", self.pos - 1)
        return value

    def resolve_block(self, token: str) -> Value:
        key, name = local_key(token[1:])
        value = self.locals.get(key)
        if value is None:
            value = self.locals[key] = Block(name)
            self.pending[key] = (value, self.pos - 1)
        elif not isinstance(value, Block):
            self.error(f"'{token}' is not a basic block", self.pos - 1)
        return value

    def _check_resolved(self) -> None:
        for _, index in self.pending.values():
            self.error(f"use of undefined value '{self.tokens[index]}'", index)
