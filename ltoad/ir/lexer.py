"""Tokens of LLVM textual IR, name quoting, and the located error every IR reader raises.

One regular expression splits text into tokens; blanks and `;` comments between tokens are kept
beside each token, so the exact source of any run of tokens can be rebuilt and any token can be
located (line, column) when an error is reported.
"""

import re
from typing import NoReturn

from ltoad.diagnostics import LtoadError

_BLANKS = r"(?:\s+|;[^\n]*)*"
_TOKEN = (
    r'[%@$!]?[-a-zA-Z$._0-9]+(?:\+[0-9]+)?:?'  # words, names, numbers, `label:`
    r'|[=,()\[\]{}<>*]'
    r'|[%@$!]?c?"[^"]*":?'  # strings, quoted names, `"label":`
    r"|#[a-zA-Z_0-9]+"  # attribute groups `#0`, debug records `#dbg_value`
    r"|."
)
_SCAN = re.compile(f"({_BLANKS})({_TOKEN})")
_PLAIN_NAME = re.compile(r"[-a-zA-Z._][-a-zA-Z._0-9]*")
_ESCAPE = re.compile(r"\\([0-9A-Fa-f]{2}|\\)")

EOF = ""


class IRParseError(LtoadError):
    """Malformed or unsupported IR text, located by line and column in the text given."""

    def __init__(self, message: str, line: int, col: int):
        super().__init__(f"ir: line {line}, col {col}: {message}")
        self.message = message
        self.line = line
        self.col = col


def locate(text: str, offset: int) -> tuple[int, int]:
    """The 1-based (line, column) of a character offset in `text`."""
    line_start = text.rfind("\n", 0, offset) + 1
    return text.count("\n", 0, offset) + 1, offset - line_start + 1


class Lexer:
    """The tokens of `text[start:end]`; `tokens` ends with one EOF ("") token."""

    def __init__(self, text: str, start: int = 0, end: int | None = None):
        self.text = text
        self.start = start
        self.end = len(text) if end is None else end
        pairs = _SCAN.findall(text, start, self.end)
        self.blanks: list[str] = [blank for blank, _ in pairs]
        self.tokens: list[str] = [token for _, token in pairs]
        self.tokens.append(EOF)

    def offset(self, index: int) -> int:
        """The character offset in `text` where token `index` starts (or the end, for EOF)."""
        if index >= len(self.blanks):
            return self.end
        consumed = sum(map(len, self.blanks[:index])) + sum(map(len, self.tokens[:index]))
        return self.start + consumed + len(self.blanks[index])

    def source(self, first: int, stop: int) -> str:
        """The exact text of tokens first..stop-1, with the blanks between them."""
        parts = [self.tokens[first]]
        for index in range(first + 1, stop):
            parts.append(self.blanks[index])
            parts.append(self.tokens[index])
        return "".join(parts)

    def error(self, message: str, index: int) -> NoReturn:
        line, col = locate(self.text, self.offset(index))
        raise IRParseError(message, line, col)


def unquote(name: str) -> str:
    """A name as written after its sigil (`foo`, `"a b"`, `"\\01x"`) -> the name itself."""
    if not name.startswith('"'):
        return name
    return _ESCAPE.sub(_unescape_one, name[1:-1])


def _unescape_one(match: re.Match) -> str:
    code = match.group(1)
    return "\\" if code == "\\" else chr(int(code, 16))


def quote(name: str) -> str:
    """The spelling LLVM uses for a name after its sigil: bare when plain, else quoted."""
    if _PLAIN_NAME.fullmatch(name):
        return name
    return '"' + escape(name) + '"'


def escape(text: str) -> str:
    """LLVM's string escaping: `\\` doubled, other non-printable ASCII and `"` as `\\XX`."""
    if text.isascii() and text.isprintable() and '"' not in text and "\\" not in text:
        return text
    return "".join(_escape_one(ch) for ch in text)


def _escape_one(ch: str) -> str:
    if ch == "\\":
        return "\\\\"
    if " " <= ch <= "~" and ch != '"':
        return ch
    return f"\\{ord(ch):02X}"
