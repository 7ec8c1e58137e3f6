"""Source locations for messages: an instruction's !dbg attachment as `file.c:12`."""

from __future__ import annotations

import re

from ..ir import Module
from ..ir.instructions import Instruction

_FIELD = re.compile(r'\b(line|scope|file|filename|inlinedAt): ("[^"]*"|![0-9]+|[0-9]+)')


def _fields(module: Module, ref: str | None) -> dict[str, str]:
    if not ref or not ref.startswith("!"):
        return {}
    return dict(_FIELD.findall(module.metadata.get(ref[1:], "")))


def source_location(module: Module, instruction: Instruction) -> str | None:
    """`file.c:LINE` of an instruction compiled with -g, else None."""
    location = _fields(module, instruction.get_metadata("dbg"))
    scope = _fields(module, location.get("scope"))
    seen = 0
    while "file" not in scope and "scope" in scope and seen < 20:
        scope, seen = _fields(module, scope["scope"]), seen + 1
    filename = _fields(module, scope.get("file")).get("filename")
    if filename is None or "line" not in location:
        return None
    return f"{filename.strip(chr(34))}:{location['line']}"


def describe(module: Module, function_name: str, instruction: Instruction | None) -> str:
    """`'f' (file.c:12)` or `'f'` for messages."""
    where = source_location(module, instruction) if instruction is not None else None
    return f"'{function_name}'" + (f" ({where})" if where else "")
