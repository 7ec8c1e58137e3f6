"""A module as text: a fast split into top-level entries, function definitions parsed lazily.

`Module(text)` only scans the lines that start at column 0 (one regular expression), recording
header lines, type definitions, globals, aliases, ifuncs, declarations, attribute groups,
comdats and metadata as raw text by name, and the span of every function definition.
`parse_function(name)` parses one definition on demand; `str(module)` prints parsed functions
and reproduces everything else as it was.
"""

import re

from ltoad.ir.function import Function
from ltoad.ir.function_parser import parse_function, parse_header
from ltoad.ir.lexer import EOF, IRParseError, locate, unquote
from ltoad.ir.parser import Parser
from ltoad.ir.printer import print_function
from ltoad.ir.symbols import Symbols
from ltoad.ir.types import NamedStructType, StructType

_NAME = r'(?:[-a-zA-Z$._0-9\\]+|"[^"]*")'
_TOP_LEVEL = re.compile(r"^(?:define|declare|attributes|source_filename|target|module|[@%!$])[^\n]*", re.M)
_FUNCTION_NAME = re.compile(rf"(define|declare) [^\n]*?@({_NAME})\(")
_ASSIGNMENT = re.compile(rf"([@%!$])({_NAME}) = ")
_ATTRIBUTE_GROUP = re.compile(r"attributes #([0-9]+) = \{ ?(.*?) ?\}$")
_HEADER = re.compile(r'(source_filename|target datalayout|target triple) = ("[^"]*")$')
_GLOBAL_KIND = re.compile(r"\b(alias|ifunc|global|constant)\b")
_MODULE_ASM = re.compile(r'module asm "[^"]*"$')


def parse_module(text: str) -> "Module":
    return Module(text)


class Module(Symbols):
    """Top-level entries by name (raw text) and lazily parsed function definitions."""

    def __init__(self, text: str = ""):
        super().__init__()
        self._text = ""
        self._definitions: dict[str, tuple[int, int]] = {}
        self._definitions_end = 0
        self._declaration_spans: dict[str, tuple[int, int]] = {}
        self._type_spans: dict[str, tuple[int, int]] = {}
        self._parsed: dict[str, Function] = {}
        self.header: dict[str, str] = {}
        self.type_definitions: dict[str, str] = {}
        self.globals: dict[str, str] = {}
        self.aliases: dict[str, str] = {}
        self.ifuncs: dict[str, str] = {}
        self.declarations: dict[str, str] = {}
        self.attribute_groups: dict[int, str] = {}
        self.comdats: dict[str, str] = {}
        self.metadata: dict[str, str] = {}
        self.module_asm: list[str] = []
        self.append(text)

    # ---- reading --------------------------------------------------------------------------

    def append(self, text: str) -> None:
        """Add top-level text (definitions, declarations, globals, metadata, ...) at the end."""
        if self._text and not self._text.endswith("\n"):
            self._text += "\n"
        start = len(self._text)
        self._text += text
        for match in _TOP_LEVEL.finditer(self._text, start):
            self._take_line(match.group(), match.start())

    def _take_line(self, line: str, offset: int) -> None:
        if line.startswith(("define ", "declare ")):
            self._take_function(line, offset)
        elif line[0] in "@%!$":
            self._take_assignment(line, offset)
        elif line.startswith("attributes "):
            self._take_attribute_group(line, offset)
        elif header := _HEADER.match(line):
            key, value = header.groups()
            self.header[key.split()[-1]] = value
        elif _MODULE_ASM.match(line):
            self.module_asm.append(line)

    def _error(self, message: str, offset: int):
        raise IRParseError(message, *locate(self._text, offset))

    def _take_function(self, line: str, offset: int) -> None:
        match = _FUNCTION_NAME.match(line)
        if match is None:
            self._error("expected function name", offset)
        name = unquote(match.group(2))
        if name in self._definitions or name in self.declarations:
            self._error(f"redefinition of @{name}", offset)
        if match.group(1) == "declare":
            self.declarations[name] = line
            self._declaration_spans[name] = (offset, offset + len(line))
            return
        if offset < self._definitions_end:
            self._error("function definition inside another one: missing '}'", offset)
        end = self._text.find("\n}", offset)
        if end < 0:
            self._error(f"function @{name} has no closing '}}'", offset)
        self._definitions[name] = (offset, end + 2)
        self._definitions_end = end + 2

    def _take_assignment(self, line: str, offset: int) -> None:
        match = _ASSIGNMENT.match(line)
        if match is None:
            return
        sigil, name, rest = match.group(1), unquote(match.group(2)), line[match.end() :]
        if sigil == "!":
            self.metadata[name] = rest
        elif sigil == "$":
            self.comdats[name] = rest.removeprefix("comdat ")
        elif sigil == "%" and rest.startswith("type "):
            self.type_definitions[name] = rest[5:]
            self._type_spans[name] = (offset + match.end() + 5, offset + len(line))
        elif sigil == "@":
            self._take_global(name, line, match.end())

    def _take_global(self, name: str, line: str, rest: int) -> None:
        kind = _GLOBAL_KIND.search(line, rest)
        tables = {"alias": self.aliases, "ifunc": self.ifuncs}
        tables.get(kind.group(1) if kind else "", self.globals)[name] = line

    def _take_attribute_group(self, line: str, offset: int) -> None:
        match = _ATTRIBUTE_GROUP.match(line)
        if match is None:
            self._error("expected attribute group `attributes #N = { ... }`", offset)
        self.attribute_groups[int(match.group(1))] = match.group(2)

    # ---- header lines ---------------------------------------------------------------------

    @property
    def source_filename(self) -> str | None:
        return self._header_string("source_filename")

    @property
    def datalayout(self) -> str | None:
        return self._header_string("datalayout")

    @property
    def triple(self) -> str | None:
        return self._header_string("triple")

    def _header_string(self, key: str) -> str | None:
        value = self.header.get(key)
        return None if value is None else unquote(value)

    # ---- types ----------------------------------------------------------------------------

    def define_named_type(self, named: NamedStructType) -> None:
        span = self._type_spans.get(named.name)
        if span is None:
            return
        parser = Parser(self._text, span[0], span[1], self)
        if parser.accept("opaque"):
            body = None
        else:
            body = parser.parse_type()
            if not isinstance(body, StructType):
                parser.error("expected struct type body", 0)
        if parser.tokens[parser.pos] != EOF:
            parser.error("expected end of type definition")
        named.body = body

    @property
    def struct_types(self) -> dict[str, NamedStructType]:
        """Every named struct type of the module, with its body parsed."""
        return {name: self.named_type(name) for name in self.type_definitions}

    # ---- functions ------------------------------------------------------------------------

    @property
    def functions(self) -> list[str]:
        """Names of the function definitions, in module order."""
        return list(self._definitions)

    def function_text(self, name: str) -> str:
        """The text of definition @name as it stands in the module text."""
        start, end = self._definitions[name]
        return self._text[start:end]

    def parse_function(self, name: str) -> Function:
        """The definition @name as a `Function`; parsed once, then printed by `str(module)`."""
        function = self._parsed.get(name)
        if function is None:
            start, end = self._definitions[name]
            function = self._parsed[name] = parse_function(self._text, start, end, self)
        return function

    def parse_declaration(self, name: str) -> Function:
        """The declaration @name as a `Function` without blocks."""
        start, end = self._declaration_spans[name]
        return parse_function(self._text, start, end, self)

    def signature(self, name: str) -> Function:
        """Function @name (definition or declaration) with its header only, no blocks."""
        if name in self._parsed:
            return self._parsed[name]
        start, end = self._definitions.get(name) or self._declaration_spans[name]
        return parse_header(self._text, start, end, self)

    def is_parsed(self, name: str) -> bool:
        return name in self._parsed

    def remove_global(self, name: str) -> None:
        """Delete the line defining or declaring global variable @name."""
        line = self.globals.pop(name)
        start = self._text.index(line)
        self._text = self._text[:start] + " " * len(line) + self._text[start + len(line):]

    def replace_declaration(self, name: str, function: Function) -> None:
        """Turn declaration @name into the definition `function` (same name)."""
        start, end = self._declaration_spans.pop(name)
        del self.declarations[name]
        self._text = self._text[:start] + " " * (end - start) + self._text[end:]
        self.add_function(function)

    def add_function(self, function: Function) -> None:
        """Append a function built in memory (a definition, or a declaration without blocks)."""
        self.append(print_function(function) + "\n")
        if not function.is_declaration:
            self._parsed[function.name] = function

    def __str__(self) -> str:
        pieces, last = [], 0
        for name, (start, end) in self._definitions.items():
            function = self._parsed.get(name)
            pieces.append(self._text[last:start])
            pieces.append(self._text[start:end] if function is None else print_function(function))
            last = end
        pieces.append(self._text[last:])
        return "".join(pieces)
