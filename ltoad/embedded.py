"""Bodies of functions that a link has only as native code, taken from embedded bitcode.

Rust rlibs hold native objects, and rustc embeds each one's bitcode in a `.llvmbc` section
(std's shared generic instances such as `RawVecInner::try_allocate_in` live there). When the
differentiator meets a call on an active path to such a function, these bodies are extracted
(`llvm-extract-22 --recursive`: the function and everything it calls from that member), made
internal, and linked into the program: the native copy stays what the rest of the program calls.
"""

from __future__ import annotations

import os
import subprocess
import tempfile

from . import toolchain
from .bitcode import elf_section, is_elf, read_archive
from .diagnostics import LtoadError, log

SECTION = b".llvmbc"


class EmbeddedBodies:
    """The functions the link's rlibs define in native members that carry `.llvmbc`."""

    def __init__(self, archives: list[str]):
        self.archives = archives
        self._where: dict[str, tuple[str, int]] | None = None

    def _index(self) -> dict[str, tuple[str, int]]:
        if self._where is None:
            self._where = {}
            for path in self.archives:
                archive = read_archive(path)
                for symbol, index in archive.symbol_index.items():
                    self._where.setdefault(symbol, (path, index))
        return self._where

    def available(self, name: str) -> bool:
        return name in self._index()

    def bitcode_for(self, names: set[str]) -> list[tuple[str, bytes]]:
        """(description, bitcode) of a module per archive member, defining `names` (and what
        they call from that member), every definition internal."""
        by_member: dict[tuple[str, int], list[str]] = {}
        for name in sorted(names):
            by_member.setdefault(self._index()[name], []).append(name)
        return [self._extract(path, index, wanted) for (path, index), wanted in by_member.items()]

    def _extract(self, path: str, index: int, wanted: list[str]) -> tuple[str, bytes]:
        member = read_archive(path).members[index]
        where = f"{path}({member.name})"
        embedded = elf_section(member.data, SECTION) if is_elf(member.data) else None
        if not embedded:
            raise LtoadError(f"{where}: no embedded bitcode for {', '.join(wanted)}")
        log(f"ltoad-ld: bodies of {', '.join(wanted)} from the bitcode embedded in {where}")
        with tempfile.TemporaryDirectory(prefix="ltoad-embedded-") as directory:
            source, target = os.path.join(directory, "in.bc"), os.path.join(directory, "out.bc")
            with open(source, "wb") as f:
                f.write(embedded)
            argv = [toolchain.find("llvm-extract"), "--recursive", *(f"--func={n}" for n in wanted),
                    source, "-o", target]
            result = subprocess.run(argv, capture_output=True, text=True)
            if result.returncode != 0:
                raise LtoadError(f"{where}: cannot extract {', '.join(wanted)}: "
                                 f"{result.stderr.strip().splitlines()[-1] if result.stderr else '?'}")
            with open(target, "rb") as f:
                return where, f.read()

