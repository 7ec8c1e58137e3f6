"""Link inputs as bytes: bitcode detection, ar archives (GNU, BSD, thin), ELF symbol tables.

Pure Python readers with no dependency on llvmlite, so drivers can classify inputs cheaply.
"""

from __future__ import annotations

import functools
import os
import struct
from dataclasses import dataclass, field

from .diagnostics import LtoadError

BITCODE_MAGIC = b"BC\xc0\xde"
BITCODE_WRAPPER_MAGIC = b"\xde\xc0\x17\x0b"
ELF_MAGIC = b"\x7fELF"
AR_MAGIC = b"!<arch>\n"
THIN_AR_MAGIC = b"!<thin>\n"

ELF_REL, ELF_DYN = 1, 3
SHT_SYMTAB, SHT_DYNSYM = 2, 11
STB_LOCAL = 0


def is_bitcode(data: bytes) -> bool:
    return data[:4] in (BITCODE_MAGIC, BITCODE_WRAPPER_MAGIC)


def is_elf(data: bytes) -> bool:
    return data[:4] == ELF_MAGIC


def is_archive(data: bytes) -> bool:
    return data[:8] in (AR_MAGIC, THIN_AR_MAGIC)


def file_kind(path: str) -> str:
    """One of 'bitcode', 'archive', 'elf-object', 'elf-shared', 'elf', 'other'."""
    with open(path, "rb") as f:
        head = f.read(64)
    if is_bitcode(head):
        return "bitcode"
    if is_archive(head):
        return "archive"
    if is_elf(head):
        return {ELF_REL: "elf-object", ELF_DYN: "elf-shared"}.get(_elf_type(head), "elf")
    return "other"


def _elf_type(head: bytes) -> int:
    if len(head) < 18 or head[4] != 2 or head[5] != 1:  # 64-bit little endian only
        return 0
    return struct.unpack_from("<H", head, 16)[0]


# --- ELF symbol tables ------------------------------------------------------------------------

@dataclass
class SymbolSets:
    """Global symbols an object defines and the ones it needs from elsewhere."""
    defined: set[str] = field(default_factory=set)
    undefined: set[str] = field(default_factory=set)


def _elf_sections(data: bytes):
    shoff = struct.unpack_from("<Q", data, 0x28)[0]
    shentsize, shnum = struct.unpack_from("<HH", data, 0x3A)
    for i in range(shnum):
        yield struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize)


def elf_symbols(data: bytes) -> SymbolSets:
    """Global defined/undefined symbols of a 64-bit little-endian ELF relocatable or shared object.

    Relocatable objects use .symtab, shared objects .dynsym. Other ELF flavours give empty sets.
    """
    sets = SymbolSets()
    kind = _elf_type(data[:64])
    wanted = {ELF_REL: SHT_SYMTAB, ELF_DYN: SHT_DYNSYM}.get(kind)
    if wanted is None:
        return sets
    try:
        sections = list(_elf_sections(data))
        for (_name, sh_type, _fl, _addr, offset, size, link, _info, _al, entsize) in sections:
            if sh_type != wanted or entsize == 0:
                continue
            strtab_offset = sections[link][4]
            for i in range(1, size // entsize):
                _read_symbol(data, offset + i * entsize, strtab_offset, sets)
    except (struct.error, IndexError):
        raise LtoadError("malformed ELF symbol table") from None
    return sets


def _read_symbol(data: bytes, at: int, strtab: int, sets: SymbolSets) -> None:
    st_name, st_info, _other, st_shndx = struct.unpack_from("<IBBH", data, at)
    if st_info >> 4 == STB_LOCAL or st_name == 0:
        return
    end = data.index(b"\0", strtab + st_name)
    name = data[strtab + st_name:end].decode("utf-8", "replace")
    (sets.undefined if st_shndx == 0 else sets.defined).add(name)


def elf_section(data: bytes, wanted: bytes) -> bytes | None:
    """The contents of the ELF section named `wanted` (e.g. b'.llvmbc'), or None."""
    if not is_elf(data) or data[4] != 2:
        return None
    sections = list(_elf_sections(data))
    shstrndx = struct.unpack_from("<H", data, 0x3E)[0]
    names_at = sections[shstrndx][4]
    for (name, _t, _fl, _addr, offset, size, *_rest) in sections:
        end = data.index(b"\0", names_at + name)
        if data[names_at + name:end] == wanted:
            return data[offset:offset + size]
    return None


# --- ar archives ------------------------------------------------------------------------------

@dataclass
class Member:
    name: str
    data: bytes

    @property
    def is_bitcode(self) -> bool:
        return is_bitcode(self.data)


@dataclass
class Archive:
    path: str
    members: list[Member]
    thin: bool
    symbol_index: dict[str, int]   # symbol -> index into members, from the archive's own map

    def has_bitcode(self) -> bool:
        return any(m.is_bitcode for m in self.members)


def read_archive(path: str) -> Archive:
    """The archive at `path`, read once per link (ltoad-ld asks first whether it holds bitcode,
    then resolves symbols in it)."""
    status = os.stat(path)
    return _read_archive(path, status.st_mtime_ns, status.st_size)


@functools.cache
def _read_archive(path: str, _mtime_ns: int, _size: int) -> Archive:
    with open(path, "rb") as f:
        data = f.read()
    try:
        return _parse_archive(path, data)
    except (ValueError, struct.error, IndexError, UnicodeDecodeError, OSError) as e:
        raise LtoadError(f"{path}: malformed archive ({e})") from None


def _parse_archive(path: str, data: bytes) -> Archive:
    thin = data[:8] == THIN_AR_MAGIC
    members: list[Member] = []
    offsets: dict[int, int] = {}
    armap: list[tuple[str, int]] = []
    long_names = b""
    pos = 8
    while pos + 60 <= len(data):
        header = data[pos:pos + 60]
        if header[58:60] != b"`\n":
            raise ValueError(f"bad member header at offset {pos}")
        raw_name = header[:16].decode().rstrip()
        size = int(header[48:58].decode().strip() or 0)
        body_at = pos + 60
        member_offset, pos = pos, body_at + size + (size & 1)
        if raw_name in ("/", "/SYM64/"):
            armap = _gnu_armap(data[body_at:body_at + size], raw_name == "/SYM64/")
            continue
        if raw_name == "//":
            long_names = data[body_at:body_at + size]
            continue
        name, body = _member_name_and_body(raw_name, data, body_at, size, long_names, thin)
        if name in ("__.SYMDEF", "__.SYMDEF SORTED"):
            continue
        if thin:
            member_path = os.path.join(os.path.dirname(path), name)
            with open(member_path, "rb") as mf:
                body = mf.read()
        offsets[member_offset] = len(members)
        members.append(Member(name, body))
    index = {sym: offsets[off] for sym, off in armap if off in offsets}
    return Archive(path, members, thin, index)


def _member_name_and_body(raw, data, body_at, size, long_names, thin):
    if raw.startswith("#1/"):  # BSD: name stored at the start of the body
        n = int(raw[3:])
        return data[body_at:body_at + n].decode().rstrip("\0"), data[body_at + n:body_at + size]
    if raw.startswith("/") and raw[1:].isdigit():
        start = int(raw[1:])
        end = long_names.index(b"\n", start)
        name = long_names[start:end].decode().rstrip("/")
    else:
        name = raw.rstrip("/")
    body = b"" if thin else data[body_at:body_at + size]
    return name, body


def _gnu_armap(body: bytes, wide: bool) -> list[tuple[str, int]]:
    width = 8 if wide else 4
    fmt = ">Q" if wide else ">I"
    count = struct.unpack_from(fmt, body, 0)[0]
    offsets = [struct.unpack_from(fmt, body, width * (1 + i))[0] for i in range(count)]
    names = body[width * (1 + count):].split(b"\0")
    return [(names[i].decode("utf-8", "replace"), offsets[i]) for i in range(count)]


def write_archive(path: str, members: list[Member]) -> None:
    """Write a regular GNU archive (no symbol map: ld.lld indexes members itself)."""
    table = b""
    headers = []
    for m in members:
        base = os.path.basename(m.name)
        if len(base) < 16 and "/" not in base:
            headers.append(f"{base}/")
        else:
            headers.append(f"/{len(table)}")
            table += base.encode() + b"/\n"
    with open(path, "wb") as f:
        f.write(AR_MAGIC)
        if table:
            _write_member(f, "//", table)
        for header, m in zip(headers, members):
            _write_member(f, header, m.data)


def _write_member(f, name: str, body: bytes) -> None:
    f.write(f"{name:<16}{0:<12}{0:<6}{0:<6}{644:<8}{len(body):<10}`\n".encode())
    f.write(body)
    if len(body) & 1:
        f.write(b"\n")
