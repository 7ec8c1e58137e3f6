"""Whole-program bitcode operations on llvmlite: load, merge, internalize, optimize, emit.

Everything here happens in one llvmlite context per link (modules from two contexts must never
meet). Failures become LtoadError with the input's name and the cause.
"""

from __future__ import annotations

from dataclasses import dataclass

import llvmlite
import llvmlite.binding as llvm

from . import bitstream
from .bitcode import SymbolSets
from .diagnostics import LtoadError

_initialized = False

KEPT_LINKAGES = {
    llvm.Linkage.internal, llvm.Linkage.private, llvm.Linkage.appending,
    llvm.Linkage.available_externally,
}
LOCAL_LINKAGES = {llvm.Linkage.internal, llvm.Linkage.private}
# Enzyme's custom-derivative registrations: nothing references them, yet the AD step needs them.
KEPT_PREFIXES = ("__enzyme_register_gradient_",)


def _initialize() -> None:
    global _initialized
    if not _initialized:
        if llvm.llvm_version_info[0] != 22:
            raise LtoadError(
                f"llvmlite {llvmlite.__version__} bundles LLVM "
                f"{'.'.join(map(str, llvm.llvm_version_info))}; ltoad needs llvmlite 0.50 (LLVM 22)")
        llvm.initialize_native_target()
        llvm.initialize_native_asmprinter()
        llvm.initialize_native_asmparser()
        _initialized = True


@dataclass
class LoadedModule:
    name: str
    module: llvm.ModuleRef
    symbols: SymbolSets


class Session:
    """One link: a context, the bitcode modules loaded into it, and the merged result."""

    def __init__(self):
        _initialize()
        self.context = llvm.create_context()

    def load(self, name: str, data: bytes) -> LoadedModule:
        try:
            module = llvm.parse_bitcode(data, context=self.context)
        except RuntimeError:
            raise LtoadError(f"{name}: {unreadable_bitcode_cause(data)}") from None
        return LoadedModule(name, module, module_symbols(module))

    def parse_text(self, name: str, text: str) -> llvm.ModuleRef:
        try:
            return llvm.parse_assembly(text, context=self.context)
        except RuntimeError as e:
            raise LtoadError(f"{name}: invalid IR: {_first_line(e)}") from None

    def merge(self, loaded: list[LoadedModule]) -> llvm.ModuleRef:
        merged = loaded[0].module
        for item in loaded[1:]:
            try:
                merged.link_in(item.module)
            except RuntimeError as e:
                raise LtoadError(f"{item.name}: cannot link: {_first_line(e)}") from None
        return merged


def unreadable_bitcode_cause(data: bytes) -> str:
    """Why LLVM 22 cannot read a bitcode file, as precisely as its header tells."""
    made_by = bitstream.producer(data)
    if made_by is None:
        return "cannot read bitcode: no producer identification (corrupt, or older than LLVM 3.8)"
    major = made_by.major()
    if made_by.epoch != 0 or (major is not None and major > 22):
        return (f"bitcode was produced by {made_by.name} (epoch {made_by.epoch}), newer than the "
                "LLVM 22 ltoad reads; rebuild it with clang-22 (ltoad-clang) or a Rust toolchain "
                "on LLVM 22")
    return f"cannot read bitcode produced by {made_by.name}: the file is corrupt or truncated"


def _first_line(error: BaseException) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__


def module_symbols(module: llvm.ModuleRef) -> SymbolSets:
    """Global symbols a bitcode module defines and the ones it references but does not define."""
    sets = SymbolSets()
    for value in [*module.functions, *module.global_variables]:
        name = value.name
        if not name or name.startswith("llvm."):
            continue
        if value.is_declaration:
            sets.undefined.add(name)
        elif value.linkage not in KEPT_LINKAGES:
            sets.defined.add(name)
    return sets


def internalize(module: llvm.ModuleRef, keep: set[str], export_all: bool) -> int:
    """Give internal linkage to definitions nothing outside the module can reference.

    `keep` names symbols referenced from native code or the command line. With `export_all`
    (shared libraries, --export-dynamic) every default- or protected-visibility definition stays.
    Returns how many symbols were internalized.
    """
    count = 0
    for value in [*module.functions, *module.global_variables]:
        if value.is_declaration or value.linkage in KEPT_LINKAGES or value.name.startswith("llvm."):
            continue
        if value.name in keep or value.name.startswith(KEPT_PREFIXES):
            continue
        if export_all and value.visibility != llvm.Visibility.hidden:
            continue
        value.linkage = llvm.Linkage.internal
        value.visibility = llvm.Visibility.default
        count += 1
    return count


def default_triple() -> str:
    return llvm.get_process_triple()


def target_machine(module: llvm.ModuleRef, cpu: str, level: int) -> llvm.TargetMachine:
    triple = module.triple or default_triple()
    try:
        target = llvm.Target.from_triple(triple)
    except RuntimeError as e:
        raise LtoadError(f"unsupported target '{triple}': {_first_line(e)}") from None
    return target.create_target_machine(cpu=cpu, features="", opt=min(level, 3),
                                        reloc="pic", codemodel="default")


def optimize(module: llvm.ModuleRef, machine: llvm.TargetMachine, level: int,
             vectorize: bool = True) -> None:
    """Run LLVM's per-module default pipeline at `level` (0-3)."""
    tuning = llvm.create_pipeline_tuning_options(speed_level=level)
    tuning.loop_vectorization = vectorize and level >= 2
    tuning.slp_vectorization = vectorize and level >= 2
    builder = llvm.create_pass_builder(machine, tuning)
    builder.getModulePassManager().run(module, builder)


def verify(module: llvm.ModuleRef, what: str) -> None:
    try:
        module.verify()
    except RuntimeError as e:
        raise LtoadError(f"{what}: module does not verify: {_first_line(e)}") from None

