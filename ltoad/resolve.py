"""Symbol resolution across link inputs: which bitcode to load and what native code needs.

Follows ld.lld's archive semantics: an archive member is extracted when it defines a symbol that
is still undefined, wherever the archive sits on the command line; `--whole-archive` extracts
every member. Native objects and archive members take part in the resolution (their references
can pull bitcode members in), but only bitcode is loaded; lld handles the native code itself.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from .bitcode import Archive, SymbolSets, elf_symbols, is_bitcode, is_elf, read_archive
from .diagnostics import log
from .link import LoadedModule


@dataclass
class LinkInput:
    path: str
    kind: str                 # bitcode.file_kind(): 'bitcode', 'archive', 'elf-object', ...
    whole_archive: bool = False


@dataclass
class Resolution:
    loaded: list[LoadedModule] = field(default_factory=list)
    native_refs: set[str] = field(default_factory=set)     # symbols native code references
    bitcode_archives: dict[str, Archive] = field(default_factory=dict)


Loader = Callable[[str, bytes], LoadedModule]


class _Resolver:
    def __init__(self, load: Loader, required: set[str]):
        self.load = load
        self.result = Resolution()
        self.defined: set[str] = set()
        self.undefined: set[str] = set(required)
        self.lazy: dict[str, tuple[Archive, int]] = {}
        self.extracted: set[tuple[str, int]] = set()
        self.preloaded: dict[tuple[str, int], LoadedModule] = {}

    def add_symbols(self, sets: SymbolSets, native: bool) -> None:
        self.defined |= sets.defined
        self.undefined |= sets.undefined
        if native:
            self.result.native_refs |= sets.undefined

    def add_input(self, item: LinkInput) -> None:
        if item.kind == "bitcode":
            with open(item.path, "rb") as f:
                self._add_bitcode(item.path, f.read())
        elif item.kind in ("elf-object", "elf-shared"):
            with open(item.path, "rb") as f:
                self.add_symbols(elf_symbols(f.read()), native=True)
        elif item.kind == "archive":
            self._add_archive(item)

    def _add_bitcode(self, name: str, data: bytes, loaded: LoadedModule | None = None) -> None:
        loaded = loaded or self.load(name, data)
        self.result.loaded.append(loaded)
        self.add_symbols(loaded.symbols, native=False)

    def _add_archive(self, item: LinkInput) -> None:
        archive = read_archive(item.path)
        if archive.has_bitcode():
            self.result.bitcode_archives[item.path] = archive
        listed: dict[int, set[str]] = {}
        for symbol, index in archive.symbol_index.items():
            listed.setdefault(index, set()).add(symbol)
        for index in range(len(archive.members)):
            if item.whole_archive:
                self._extract(archive, index)
                continue
            for symbol in listed.get(index) or self._member_definitions(archive, index):
                self.lazy.setdefault(symbol, (archive, index))

    def _member_definitions(self, archive: Archive, index: int) -> set[str]:
        """Definitions of a member the archive's symbol map does not list (e.g. no map at all)."""
        member = archive.members[index]
        if is_elf(member.data):
            return elf_symbols(member.data).defined
        if member.is_bitcode:
            loaded = self.load(_member_name(archive, index), member.data)
            self.preloaded[(archive.path, index)] = loaded
            return loaded.symbols.defined
        return set()

    def _extract(self, archive: Archive, index: int) -> None:
        key = (archive.path, index)
        if key in self.extracted:
            return
        self.extracted.add(key)
        member = archive.members[index]
        if is_bitcode(member.data):
            name = _member_name(archive, index)
            log(f"ltoad-ld: extracting bitcode member {name}")
            self._add_bitcode(name, member.data, self.preloaded.pop(key, None))
        elif is_elf(member.data):
            self.add_symbols(elf_symbols(member.data), native=True)

    def close_over_archives(self) -> None:
        changed = True
        while changed:
            changed = False
            for symbol in sorted(self.undefined - self.defined):
                target = self.lazy.get(symbol)
                if target and (target[0].path, target[1]) not in self.extracted:
                    self._extract(*target)
                    changed = True


def _member_name(archive: Archive, index: int) -> str:
    return f"{archive.path}({archive.members[index].name})"


def resolve(inputs: list[LinkInput], load: Loader, required: set[str]) -> Resolution:
    """Load the bitcode the link needs. `required` are symbols named by -u / the entry point."""
    resolver = _Resolver(load, required)
    for item in inputs:
        resolver.add_input(item)
    resolver.close_over_archives()
    resolver.result.native_refs |= required
    return resolver.result
