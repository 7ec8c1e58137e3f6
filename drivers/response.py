"""Expansion of @response files as GCC, clang and ld.lld read them (GNU quoting rules)."""

from __future__ import annotations

import os

from ltoad.diagnostics import LtoadError


def expand(argv: list[str], depth: int = 0) -> list[str]:
    """Replace every `@file` argument by the arguments the file holds, recursively."""
    if depth > 20:
        raise LtoadError("response files nest too deeply (more than 20 levels)")
    out: list[str] = []
    for arg in argv:
        if arg.startswith("@") and len(arg) > 1 and os.path.isfile(arg[1:]):
            with open(arg[1:], encoding="utf-8", errors="surrogateescape") as f:
                out.extend(expand(split_gnu(f.read()), depth + 1))
        else:
            out.append(arg)
    return out


def split_gnu(text: str) -> list[str]:
    """Split response-file text: whitespace separates, quotes group, backslash escapes."""
    words: list[str] = []
    word: list[str] = []
    in_word = False
    quote = ""
    chars = iter(text)
    for c in chars:
        if c == "\\":
            word.append(next(chars, ""))
            in_word = True
        elif quote:
            if c == quote:
                quote = ""
            else:
                word.append(c)
        elif c in "'\"":
            quote = c
            in_word = True
        elif c.isspace():
            if in_word:
                words.append("".join(word))
                word, in_word = [], False
        else:
            word.append(c)
            in_word = True
    if in_word:
        words.append("".join(word))
    return words
