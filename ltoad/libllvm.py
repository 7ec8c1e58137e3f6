"""The final LTO pipeline and code generation through Debian's libLLVM-22 (LLVM-C, ctypes).

llvmlite exposes only LLVM's per-module pipelines. Running `default<O2>` again on bitcode that
the compile step already optimized costs 2.5x what ld.lld's post-link `lto<O2>` pipeline costs
for the same result (measured on a 52k-line program: 1.73 s against 0.67 s), and code
generation after it is slower too. LLVM-C's `LLVMRunPasses` accepts any pipeline text, so the
last step hands the merged module over as bitcode to the libLLVM that ld.lld itself uses.
Objects of the two LLVMs never meet: only bytes cross.
"""

from __future__ import annotations

import ctypes
import os
from functools import cache

from .diagnostics import LtoadError

LIBRARY_CANDIDATES = ("/usr/lib/llvm-22/lib/libLLVM.so.22.1", "/usr/lib/llvm-22/lib/libLLVM.so.1",
                      "/usr/lib/llvm-22/lib/libLLVM-22.so")
RELOC_PIC = 2
CODE_MODEL_DEFAULT = 0
OBJECT_FILE = 1

P = ctypes.c_void_p


def _signature(lib, name: str, restype, *argtypes) -> None:
    function = getattr(lib, name)
    function.restype = restype
    function.argtypes = list(argtypes)


@cache
def _library() -> ctypes.CDLL:
    path = os.environ.get("LTOAD_LIBLLVM") or next(
        (p for p in LIBRARY_CANDIDATES if os.path.exists(p)), None)
    if path is None:
        raise LtoadError("libLLVM-22 not found (/usr/lib/llvm-22/lib); "
                         "apt-get install llvm-22 (scripts/setup does this)")
    lib = ctypes.CDLL(path)
    for part in ("TargetInfo", "Target", "TargetMC", "AsmPrinter"):
        getattr(lib, f"LLVMInitializeX86{part}")()
    _signature(lib, "LLVMContextCreate", P)
    _signature(lib, "LLVMContextDispose", None, P)
    _signature(lib, "LLVMCreateMemoryBufferWithMemoryRangeCopy", P, ctypes.c_char_p,
               ctypes.c_size_t, ctypes.c_char_p)
    _signature(lib, "LLVMDisposeMemoryBuffer", None, P)
    _signature(lib, "LLVMGetBufferStart", P, P)
    _signature(lib, "LLVMGetBufferSize", ctypes.c_size_t, P)
    _signature(lib, "LLVMParseBitcodeInContext2", ctypes.c_int, P, P, ctypes.POINTER(P))
    _signature(lib, "LLVMDisposeModule", None, P)
    _signature(lib, "LLVMGetTargetFromTriple", ctypes.c_int, ctypes.c_char_p, ctypes.POINTER(P),
               ctypes.POINTER(P))
    _signature(lib, "LLVMCreateTargetMachine", P, P, ctypes.c_char_p, ctypes.c_char_p,
               ctypes.c_char_p, ctypes.c_int, ctypes.c_int, ctypes.c_int)
    _signature(lib, "LLVMDisposeTargetMachine", None, P)
    _signature(lib, "LLVMCreatePassBuilderOptions", P)
    _signature(lib, "LLVMDisposePassBuilderOptions", None, P)
    _signature(lib, "LLVMRunPasses", P, P, ctypes.c_char_p, P, P)
    _signature(lib, "LLVMGetErrorMessage", P, P)
    _signature(lib, "LLVMDisposeErrorMessage", None, P)
    _signature(lib, "LLVMDisposeMessage", None, P)
    _signature(lib, "LLVMTargetMachineEmitToMemoryBuffer", ctypes.c_int, P, P, ctypes.c_int,
               ctypes.POINTER(P), ctypes.POINTER(P))
    return lib


def _message(lib, pointer: int, dispose: str) -> str:
    text = ctypes.string_at(pointer).decode("utf-8", "replace")
    getattr(lib, dispose)(pointer)
    return text.strip().splitlines()[0] if text.strip() else "unknown error"


def _parse(lib, context, bitcode: bytes):
    buffer = lib.LLVMCreateMemoryBufferWithMemoryRangeCopy(bitcode, len(bitcode), b"ltoad")
    module = P()
    failed = lib.LLVMParseBitcodeInContext2(context, buffer, ctypes.byref(module))
    lib.LLVMDisposeMemoryBuffer(buffer)
    if failed:
        raise LtoadError("libLLVM-22 could not read the merged module")
    return module


def _target_machine(lib, triple: str, cpu: str, features: str, level: int):
    target, error = P(), P()
    if lib.LLVMGetTargetFromTriple(triple.encode(), ctypes.byref(target), ctypes.byref(error)):
        raise LtoadError(f"unsupported target '{triple}': "
                         f"{_message(lib, error.value, 'LLVMDisposeMessage')}")
    return lib.LLVMCreateTargetMachine(target, triple.encode(), cpu.encode(), features.encode(),
                                       min(level, 3), RELOC_PIC, CODE_MODEL_DEFAULT)


class NativeModule:
    """A module in libLLVM-22 with its target machine: `run_passes`, then `emit`.

    Use as a context manager; everything is released on exit.
    """

    def __init__(self, bitcode: bytes, triple: str, cpu: str, level: int, features: str = ""):
        self.lib = _library()
        self.context = self.lib.LLVMContextCreate()
        self.module = _parse(self.lib, self.context, bitcode)
        self.machine = _target_machine(self.lib, triple, cpu or "generic", features, level)

    def __enter__(self) -> "NativeModule":
        return self

    def __exit__(self, *exc) -> None:
        self.lib.LLVMDisposeTargetMachine(self.machine)
        self.lib.LLVMDisposeModule(self.module)
        self.lib.LLVMContextDispose(self.context)

    def run_passes(self, pipeline: str) -> None:
        """Run a new-pass-manager pipeline given as text, e.g. 'lto<O2>'."""
        lib = self.lib
        options = lib.LLVMCreatePassBuilderOptions()
        try:
            error = lib.LLVMRunPasses(self.module, pipeline.encode(), self.machine, options)
        finally:
            lib.LLVMDisposePassBuilderOptions(options)
        if error:
            text = _message(lib, lib.LLVMGetErrorMessage(error), "LLVMDisposeErrorMessage")
            raise LtoadError(f"pipeline '{pipeline}' failed: {text}")

    def emit(self) -> bytes:
        """The module as a PIC object file."""
        lib = self.lib
        message, buffer = P(), P()
        if lib.LLVMTargetMachineEmitToMemoryBuffer(self.machine, self.module, OBJECT_FILE,
                                                   ctypes.byref(message), ctypes.byref(buffer)):
            text = _message(lib, message.value, "LLVMDisposeMessage")
            raise LtoadError(f"code generation failed: {text}")
        data = ctypes.string_at(lib.LLVMGetBufferStart(buffer), lib.LLVMGetBufferSize(buffer))
        lib.LLVMDisposeMemoryBuffer(buffer)
        return data
