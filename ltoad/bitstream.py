"""Which LLVM produced a bitcode file: the IDENTIFICATION block (producer string and epoch).

llvmlite reports every unreadable bitcode file as "LLVM bitcode parsing error"; this reader lets
ltoad say instead that a file comes from a newer LLVM, or that it is damaged.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

IDENTIFICATION_BLOCK_ID = 13
STRING_CODE, EPOCH_CODE = 1, 2
END_BLOCK, ENTER_SUBBLOCK, DEFINE_ABBREV, UNABBREV_RECORD = 0, 1, 2, 3
FIXED, VBR, ARRAY, CHAR6, BLOB = 1, 2, 3, 4, 5
CHAR6_ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._"
WRAPPER_MAGIC = b"\xde\xc0\x17\x0b"


@dataclass(frozen=True)
class Producer:
    name: str     # e.g. "LLVM22.1.8"
    epoch: int    # 0 for every LLVM since 3.8

    def major(self) -> int | None:
        digits = self.name.removeprefix("LLVM").split(".")[0]
        return int(digits) if digits.isdigit() else None


class _Bits:
    def __init__(self, data: bytes, start: int):
        self.data, self.pos = data, start * 8

    def read(self, width: int) -> int:
        value = 0
        for i in range(width):
            byte = self.data[self.pos >> 3]
            value |= ((byte >> (self.pos & 7)) & 1) << i
            self.pos += 1
        return value

    def vbr(self, width: int) -> int:
        value, shift, high = 0, 0, 1 << (width - 1)
        while True:
            chunk = self.read(width)
            value |= (chunk & (high - 1)) << shift
            shift += width - 1
            if not chunk & high:
                return value

    def align32(self) -> None:
        self.pos = (self.pos + 31) & ~31


def producer(data: bytes) -> Producer | None:
    """The producer of a bitcode file, or None when it has no readable identification block."""
    try:
        return _read_identification(data)
    except (IndexError, ValueError):
        return None


def _read_identification(data: bytes) -> Producer | None:
    start = struct.unpack_from("<I", data, 8)[0] if data[:4] == WRAPPER_MAGIC else 0
    bits = _Bits(data, start + 4)
    if bits.read(2) != ENTER_SUBBLOCK or bits.vbr(8) != IDENTIFICATION_BLOCK_ID:
        return None
    width = bits.vbr(4)
    bits.align32()
    bits.read(32)
    abbrevs: list[list[tuple[bool, int, int]]] = []
    name, epoch = "", None
    while True:
        abbrev_id = bits.read(width)
        if abbrev_id == END_BLOCK:
            break
        if abbrev_id == DEFINE_ABBREV:
            abbrevs.append(_define_abbrev(bits))
            continue
        code, ops = _record(bits, abbrev_id, abbrevs)
        if code == STRING_CODE:
            name = "".join(chr(c) for c in ops)
        elif code == EPOCH_CODE and ops:
            epoch = ops[0]
    return Producer(name, epoch if epoch is not None else 0) if name else None


def _define_abbrev(bits: _Bits) -> list[tuple[bool, int, int]]:
    ops = []
    for _ in range(bits.vbr(5)):
        if bits.read(1):
            ops.append((True, bits.vbr(8), 0))
        else:
            encoding = bits.read(3)
            width = bits.vbr(5) if encoding in (FIXED, VBR) else 0
            ops.append((False, encoding, width))
    return ops


def _record(bits: _Bits, abbrev_id: int, abbrevs) -> tuple[int, list[int]]:
    if abbrev_id == UNABBREV_RECORD:
        code = bits.vbr(6)
        return code, [bits.vbr(6) for _ in range(bits.vbr(6))]
    values: list[int] = []
    ops = abbrevs[abbrev_id - 4]
    i = 0
    while i < len(ops):
        literal, encoding, width = ops[i]
        if literal:
            values.append(encoding)
        elif encoding == ARRAY:
            element = ops[i + 1]
            values.extend(_scalar(bits, element) for _ in range(bits.vbr(6)))
            i += 1
        elif encoding == BLOB:
            raise ValueError("blob in identification block")
        else:
            values.append(_scalar(bits, ops[i]))
        i += 1
    return values[0], values[1:]


def _scalar(bits: _Bits, op: tuple[bool, int, int]) -> int:
    literal, encoding, width = op
    if literal:
        return encoding
    if encoding == FIXED:
        return bits.read(width)
    if encoding == VBR:
        return bits.vbr(width)
    if encoding == CHAR6:
        return ord(CHAR6_ALPHABET[bits.read(6)])
    raise ValueError(f"unexpected encoding {encoding}")
