"""Static constructors and destructors placed in .init_array / .fini_array.

llvmlite's target machines leave LLVM's `UseInitArray` option off, so `llvm.global_ctors` would
be emitted as a `.ctors` section, which modern crt files and ld.lld never run. Before code
generation ltoad therefore moves the entries into explicit `.init_array[.PRIORITY]` arrays,
defined in a small module linked into the merged one, as clang's own code generator would.
"""

from __future__ import annotations

import re

import llvmlite.binding as llvm

ENTRY = re.compile(r'\{ i32 (\d+), ptr (@(?:"[^"]*"|[-\w$.]+)|null), ptr [^}]*\}')
LISTS = {"llvm.global_ctors": ".init_array", "llvm.global_dtors": ".fini_array"}
DEFAULT_PRIORITY = 65535


def _entries(module: llvm.ModuleRef, list_name: str) -> list[tuple[int, str]] | None:
    try:
        variable = module.get_global_variable(list_name)
    except NameError:
        return None
    text = str(variable)
    initializer = text.split("] [", 1)[1] if "] [" in text else ""
    return [(int(p), f) for p, f in ENTRY.findall(initializer) if f != "null"]


def _exported_name(module: llvm.ModuleRef, ref: str, serial: int) -> str:
    """The function's symbol name, made linkable from another module if it was local."""
    name = ref[1:].strip('"')
    function = module.get_function(name)
    if function.linkage in (llvm.Linkage.internal, llvm.Linkage.private):
        function.name = f"__ltoad_structor.{serial}"
        function.linkage = llvm.Linkage.external
        function.visibility = llvm.Visibility.hidden
    return function.name


def structor_arrays_ir(module: llvm.ModuleRef) -> str | None:
    """Detach llvm.global_ctors/dtors from `module`; return IR defining the equivalent arrays."""
    declarations: dict[str, str] = {}
    arrays: list[str] = []
    for list_name, section in LISTS.items():
        entries = _entries(module, list_name)
        if not entries:
            continue
        by_priority: dict[int, list[str]] = {}
        for priority, ref in entries:
            name = _exported_name(module, ref, len(declarations))
            declarations[name] = f'declare void @"{name}"()'
            by_priority.setdefault(priority, []).append(name)
        old = module.get_global_variable(list_name)
        old.name = f"__ltoad_lowered.{list_name[5:]}"
        old.linkage = llvm.Linkage.internal
        for priority, names in by_priority.items():
            suffix = "" if priority == DEFAULT_PRIORITY else f".{priority:05d}"
            items = ", ".join(f'ptr @"{n}"' for n in names)
            arrays.append(f'@"__ltoad{section}{suffix}" = internal global [{len(names)} x ptr] '
                          f'[{items}], section "{section}{suffix}", align 8')
    if not arrays:
        return None
    used = ", ".join(f'ptr @"{a.split(chr(34))[1]}"' for a in arrays)
    header = [f'target datalayout = "{module.data_layout}"', f'target triple = "{module.triple}"']
    return "\n".join([*header, *arrays, f"@llvm.used = appending global [{len(arrays)} x ptr] [{used}], "
                      'section "llvm.metadata"', *declarations.values()]) + "\n"
