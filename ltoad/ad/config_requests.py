"""ltoad.yaml's entries resolved against the linked program.

Each `derivatives:` entry becomes a request like an `__enzyme_autodiff` call (`mode: forward`:
`__enzyme_fwddiff`), answered by a function ltoad defines under the entry's `name`. Its
signature follows the target's parameters: each argument in order, a `dup`/`dupnoneed` pointer
followed by its shadow; the derivatives of the `out` arguments come back as the C ABI returns
a struct of them (none: void, one: the value, two doubles: registers, more than 16 bytes: a
hidden struct pointer). An active float return is seeded with 1.0. In forward mode a float
argument is `dup` (value, then tangent) and the function returns the tangent of a float
result; with `width: N` a dup pointer is followed by its N shadows' base and their byte stride
(size_t) and the N tangents come back as a C struct of N values. `inactive:` patterns and `custom:` entries become annotations.
"""

from __future__ import annotations

import difflib
import fnmatch

from .. import demangle
from ..configfile import Config, Derivative, Location
from ..diagnostics import LtoadError, log
from ..ir import Module
from ..ir.builder import Builder
from ..ir.function import Argument, Function
from ..ir.types import PTR, VOID, FloatType, FunctionType, StructType, Type, VectorType
from ..ir.values import GlobalRef
from .annotations import Annotations, CustomGradient
from .memory import type_bytes
from .requests import Request, add_request_parameters, default_activity


class ProgramSymbols:
    """The program's functions and globals, found by symbol or by (demangled) name."""

    def __init__(self, module: Module):
        self.module = module
        self.functions = [*module.functions, *module.declarations]
        self._display: dict[str, str] | None = None

    @property
    def display(self) -> dict[str, str]:
        if self._display is None:
            self._display = demangle.demangle([*self.functions, *self.module.globals])
        return self._display

    def function(self, spelled: str, where: Location) -> str:
        """The symbol of the function `spelled` names (symbol, demangled name or path)."""
        if spelled in self.module.functions or spelled in self.module.declarations:
            return spelled
        wanted = demangle.normalize(spelled)
        found = [s for s in self.functions if demangle.normalize(self.display[s]) == wanted] or \
            [s for s in self.functions
             if demangle.normalize(demangle.without_parameters(self.display[s])) == wanted]
        if len(found) == 1:
            return found[0]
        if found:
            listed = "; ".join(sorted(self.display[s] for s in found))
            raise LtoadError(f"{where}: '{spelled}' names {len(found)} functions ({listed}); "
                             "write the parameter types to choose one")
        raise LtoadError(f"{where}: no function '{spelled}' in the linked program{self._hint(spelled)}")

    def resolves(self, spelled: str) -> bool:
        try:
            self.function(spelled, Location("", 0, 0))
        except LtoadError:
            return False
        return True

    def _hint(self, spelled: str) -> str:
        defined = self.module.functions
        shown = sorted({self.display[s] for s in defined} |
                       {demangle.without_parameters(self.display[s]) for s in defined})
        close = difflib.get_close_matches(spelled, shown, n=4, cutoff=0.6)
        return f"; closest: {', '.join(close)}" if close else \
            f" (it has {len(self.module.functions)} defined functions)"

    def matching(self, pattern: str, names) -> set[str]:
        """Symbols among `names` whose symbol or demangled name matches the glob `pattern`."""
        return {n for n in names if fnmatch.fnmatchcase(n, pattern)
                or fnmatch.fnmatchcase(demangle.without_parameters(self.display[n]), pattern)
                or fnmatch.fnmatchcase(self.display[n], pattern)}


def config_annotations(config: Config, symbols: ProgramSymbols) -> Annotations:
    """The inactive symbols and custom derivatives ltoad.yaml declares."""
    found = Annotations()
    module = symbols.module
    for pattern in config.inactive_functions:
        found.inactive |= symbols.matching(pattern, symbols.functions)
    for pattern in config.inactive_globals:
        found.inactive |= symbols.matching(pattern, module.globals)
    for entry in config.custom:
        if not symbols.resolves(entry.of):
            log(f"ltoad.yaml: custom derivative of '{entry.of}': no such function here; skipped")
            continue
        function, augmented, reverse = (symbols.function(n, entry.where)
                                        for n in (entry.of, entry.augmented, entry.reverse))
        found.custom[function] = CustomGradient(function, augmented, reverse)
    return found


def config_requests(config: Config, symbols: ProgramSymbols, first_index: int,
                    exported: bool = False) -> list[Request]:
    """A request for each derivative entry the program uses (declares its name), or, when the
    link exports its symbols (a shared library), for each entry whose function it contains.
    Each such entry's symbol is defined in the module."""
    requests = []
    for entry in config.derivatives:
        _check_free(symbols.module, entry)
        if not applies(entry, symbols.module, exported, symbols):
            log(f"ltoad.yaml: '{entry.name}' is not used by this program; not generated")
            continue
        request = _request(entry, symbols, first_index + len(requests))
        _define(symbols.module, entry, request)
        requests.append(request)
    return requests


def applies(entry: Derivative, module: Module, exported: bool, symbols=None) -> bool:
    if entry.name in module.declarations:
        return True
    return exported and symbols is not None and symbols.resolves(entry.of)


def _request(entry: Derivative, symbols: ProgramSymbols, index: int) -> Request:
    module = symbols.module
    symbol = symbols.function(entry.of, entry.of_where)
    if symbol not in module.functions:
        raise LtoadError(f"{entry.of_where}: '{entry.of}' has no body in the linked program "
                         "(defined in a shared library or a native object?)")
    target = module.parse_function(symbol)
    types = [a.type for a in target.args]
    activities = entry.args if entry.args is not None else \
        tuple(default_activity(t, entry.mode) for t in types)
    _check_activities(entry, symbols.display[symbol], types, activities)
    if entry.width > 1:              # N directions: dup pointers take N shadows and a stride
        activities = tuple("dupv" if a == "dup" else a for a in activities)
        tangents = [target.return_type] * entry.width if target.return_type.is_float() else []
        return_type, sret_type = c_return(tangents)
    elif entry.mode == "forward":     # the tangent of the result, if it is a float
        return_type, sret_type = (target.return_type if target.return_type.is_float() else VOID), None
    else:
        return_type, sret_type = c_return([t for t, a in zip(types, activities) if a == "out"])
    origin = f"{entry.where}: derivative '{entry.name}'"
    return Request(index, entry.mode, symbol, activities, return_type, origin, sret_type,
                   entry.width)


def _check_activities(entry: Derivative, shown: str, types: list[Type], activities) -> None:
    if len(activities) != len(types):
        listed = ", ".join(map(str, types)) or "none"
        raise LtoadError(f"{entry.args_where}: 'args' has {len(activities)} entries, but '{shown}' "
                         f"takes {len(types)} parameters ({listed})")
    forward = entry.mode == "forward"
    for position, (type, activity) in enumerate(zip(types, activities), 1):
        if entry.width > 1 and activity == "dup" and not type.is_pointer():
            raise LtoadError(f"{entry.args_where}: argument {position} of '{shown}' is {type}: "
                             f"with width {entry.width} a float argument must be 'const'")
        if forward and activity == "out":
            raise LtoadError(f"{entry.args_where}: argument {position} of '{shown}': 'out' has no "
                             "meaning in forward mode (a float is 'dup': value, then tangent)")
        if activity in ("dup", "dupnoneed") and not type.is_pointer() \
                and not (forward and type.is_float()):
            raise LtoadError(f"{entry.args_where}: argument {position} of '{shown}' is {type}: "
                             f"'{activity}' needs a pointer (use 'out' for a float, or 'const')")
        if activity == "out" and not type.is_float():
            raise LtoadError(f"{entry.args_where}: argument {position} of '{shown}' is {type}: "
                             "'out' needs a floating-point argument (use 'dup' or 'const')")


def c_return(outs: list[Type]) -> tuple[Type, Type | None]:
    """How C returns a struct of the `outs` derivatives: (register type, None) or
    (void, struct type) when it goes through a hidden pointer (x86-64 System V)."""
    if len(outs) <= 1:
        return (outs[0] if outs else VOID), None
    natural = StructType(tuple(outs))
    if any(t != FloatType("double") and t != FloatType("float") for t in outs) \
            or type_bytes(natural) > 16:
        return VOID, natural
    eightbytes: list[list[Type]] = [[], []]
    offset = 0
    for type in outs:
        size = type_bytes(type)
        offset = (offset + size - 1) // size * size
        eightbytes[offset // 8].append(type)
        offset += size
    parts = [_eightbyte(e) for e in eightbytes if e]
    return (parts[0] if len(parts) == 1 else StructType(tuple(parts))), None


def _eightbyte(types: list[Type]) -> Type:
    return types[0] if len(types) == 1 else VectorType(len(types), types[0])


def _check_free(module: Module, entry: Derivative) -> None:
    if entry.name in module.functions or entry.name in module.globals:
        raise LtoadError(f"{entry.where}: derivative name '{entry.name}' is already defined in the "
                         "program; choose another name")


def _define(module: Module, entry: Derivative, request: Request) -> None:
    """Define the entry's symbol as a call of the request (replacing the program's declaration)."""
    function = _forwarder(module, entry.name, request)
    if entry.name in module.declarations:
        declared = module.parse_declaration(entry.name).function_type
        if declared != function.function_type:
            defaults = "" if entry.args is not None else \
                f" (activities by type: {', '.join(request.activities)}; set 'args' to choose)"
            raise LtoadError(f"{entry.where}: the program declares '{entry.name}' as {declared}, "
                             f"but the derivative of '{entry.of}' is {function.function_type}"
                             f"{defaults}")
        module.replace_declaration(entry.name, function)
    else:
        module.add_function(function)


def _forwarder(module: Module, name: str, request: Request) -> Function:
    target = module.parse_function(request.target)
    function = Function(name, request.return_type)
    args = []
    if request.sret_type is not None:
        args.append(function.add_argument(Argument(PTR, "sret", [f"sret({request.sret_type})"])))
    add_request_parameters(function, target.args, request.activities)
    call_args = [*args, GlobalRef(request.target), *function.args[len(args):]]
    call_type = FunctionType(request.return_type, tuple(v.type for v in call_args))
    b = Builder(function.add_block("entry"))
    result = b.call(GlobalRef(request.symbol), call_args, call_type)
    b.ret(None if request.return_type == VOID else result)
    module.append(f"declare {call_type.ret} @\"{request.symbol}\"("
                  f"{', '.join(str(t) for t in call_type.params)})\n")
    return function
