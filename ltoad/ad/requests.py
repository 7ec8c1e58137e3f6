"""Differentiation requests written with Enzyme's C API, found and made to survive optimization.

`__enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, n)` (reverse mode) and
`__enzyme_fwddiff(...)` (forward mode) and the split pair `__enzyme_augmentfwd(...)` /
`__enzyme_reverse(..., [adjoint of the result,] tape)` are read against f's parameters
(forward mode may start with `enzyme_width, N` and pass pointers as `enzyme_dupv, stride, x, V`:
N shadows, `stride` bytes apart) (markers `enzyme_dup`,
`enzyme_dupnoneed`, `enzyme_const`, `enzyme_out`; without a marker a pointer is dup, a float out
in reverse mode and dup - value and tangent - in forward mode, anything else const). Before the pre-AD optimizer runs,
each call becomes `call @__ltoad_request.N(ptr @f, values...)`: the markers (loads of extern
globals the optimizer could fold) are gone, and f's address stays taken, so its body and
signature survive. The AD step later defines `__ltoad_request.N`.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..diagnostics import LtoadError
from ..ir import Module
from ..ir.function import Argument, Function
from ..ir.instructions import CallInst, CastInst, LoadInst, PhiInst, SelectInst
from ..ir.parser import Parser
from ..ir.types import I64, FunctionType, Type
from ..ir.values import ConstantInt, GlobalRef, Value
from .detect import entry_mode
from .locations import describe

MARKERS = {"enzyme_dup": "dup", "enzyme_dupnoneed": "dupnoneed", "enzyme_const": "const",
           "enzyme_out": "out", "enzyme_dupv": "dupv", "enzyme_width": "width"}
REQUEST_PREFIX = "__ltoad_request."


@dataclass(frozen=True)
class Request:
    index: int
    mode: str                       # 'reverse', 'forward', 'augment' or 'split-reverse'
    target: str                     # the function to differentiate
    activities: tuple[str, ...]     # one per parameter of the target
    return_type: Type               # what the caller expects back (in registers)
    origin: str                     # message prefix: "__enzyme_autodiff in 'main' (file.c:12)"
    sret_type: Type | None = None   # a struct returned through a hidden pointer (C ABI)
    width: int = 1                  # forward mode: directions per call (enzyme_width)
    alternatives: tuple[str, ...] = ()   # other functions `target` may be, chosen at run time
    part: int | None = None         # the wrapper for one of several targets (see alternatives)

    @property
    def symbol(self) -> str:
        whole = f"{REQUEST_PREFIX}{self.index}"
        return whole if self.part is None else f"{whole}.{self.part}"


def add_request_parameters(function: Function, params, activities) -> tuple[list, list, list]:
    """Add to `function` the parameters a request call passes after the function: each primal,
    a dup one followed by its shadow (an enzyme_dupv one also by its byte stride, i64).
    Returns the primals, the shadows and the stride of each shadow (None for dup)."""
    primals, shadows, strides = [], [], []
    for index, (param, activity) in enumerate(zip(params, activities)):
        primals.append(function.add_argument(Argument(param.type, f"arg{index}")))
        if activity in ("dup", "dupnoneed", "dupv"):
            shadows.append(function.add_argument(Argument(param.type, f"arg{index}.shadow")))
            strides.append(function.add_argument(Argument(I64, f"arg{index}.stride"))
                           if activity == "dupv" else None)
    return primals, shadows, strides


def _marker(value: Value) -> str | None:
    if isinstance(value, LoadInst) and isinstance(value.pointer, GlobalRef):
        return MARKERS.get(value.pointer.name)
    return None


def default_activity(type: Type, mode: str = "reverse") -> str:
    """Without a marker a pointer is dup; a float is out in reverse mode and dup (value and
    tangent) in forward mode; anything else const."""
    if type.is_pointer():
        return "dup"
    if type.is_float():
        return "out" if mode == "reverse" else "dup"
    return "const"


class _CallReader:
    """Reads the arguments of one API call against the target's parameter types."""

    def __init__(self, call: CallInst, target: Function, where: str, first: int, mode: str):
        self.args = list(call.args[first + 1:])
        self.mode = mode
        self.api = call.called_name.split(".")[0]
        self.position = 0
        self.target = target
        self.where = where
        self.strides: list[Value] = []    # enzyme_dupv byte strides (widened to i64 later)

    def fail(self, message: str):
        raise LtoadError(f"{self.api} in {self.where}: {message}")

    def take(self, what: str) -> Value:
        if self.position >= len(self.args):
            self.fail(f"too few arguments for '{self.target.name}': missing {what}")
        value = self.args[self.position]
        self.position += 1
        if _marker(value) is not None:
            self.fail(f"expected {what}, found marker {value.pointer.name}")
        return value

    def read_width(self) -> int:
        """`enzyme_width, N` before the arguments (forward mode): N directions at once."""
        if not self.args or _marker(self.args[0]) != "width":
            return 1
        self.position = 1
        width = self.take("the width after enzyme_width")
        if self.mode != "forward":
            self.fail("enzyme_width is available in forward mode (__enzyme_fwddiff) only")
        if not isinstance(width, ConstantInt) or width.value < 1:
            self.fail("enzyme_width needs a constant positive width")
        return width.value

    def _check_vector(self, index: int, param, activity: str, width: int) -> None:
        if activity == "dupv" and not param.type.is_pointer():
            self.fail(f"enzyme_dupv needs a pointer (argument {index + 1} is {param.type})")
        if width > 1 and activity == "dup":
            self.fail(f"with enzyme_width {width}, argument {index + 1} must be enzyme_dupv "
                      "(byte stride, value, shadows) or enzyme_const")

    def read(self, width: int = 1) -> tuple[list[str], list[Value]]:
        activities, values = [], []
        for index, param in enumerate(self.target.args):
            marker = _marker(self.args[self.position]) if self.position < len(self.args) else None
            if marker is not None:
                self.position += 1
            activity = marker or default_activity(param.type, self.mode)
            if activity == "width":
                self.fail("enzyme_width must come first, before the arguments")
            if activity == "out" and self.mode == "forward":
                self.fail(f"enzyme_out has no meaning in forward mode (argument {index + 1}); "
                          "pass a float as enzyme_dup with its tangent, or enzyme_const")
            self._check_vector(index, param, activity, width)
            stride = self.take(f"the byte stride of argument {index + 1}") \
                if activity == "dupv" else None
            value = self.take(f"argument {index + 1} ({param.type})")
            if value.type != param.type:
                self.fail(f"argument {index + 1} of '{self.target.name}' is {param.type}, "
                          f"but {value.type} was passed")
            values.append(value)
            if activity in ("dup", "dupnoneed", "dupv"):
                values.append(self.take(f"the shadow of argument {index + 1}"))
            if stride is not None:
                values.append(stride)
                self.strides.append(stride)
            activities.append(activity)
        if self.mode == "split-reverse":     # then the result's adjoint (if active), the tape
            if self.target.return_type.is_float():
                values.append(self.take("the adjoint of the result"))
            values.append(self.take("the tape (from __enzyme_augmentfwd)"))
        if self.position != len(self.args):
            self.fail(f"too many arguments for '{self.target.name}' "
                      f"({len(self.target.args)} parameters)")
        return activities, values


def _sret_type(module: Module, call: CallInst) -> Type | None:
    """The struct type of a hidden return pointer (`sret(T)` on the first argument)."""
    for attribute in call.arg_attrs[0] if call.arg_attrs else ():
        if attribute.startswith("sret(") and attribute.endswith(")"):
            inner = attribute[len("sret("):-1]
            return Parser(inner, 0, len(inner), module).parse_type()
    return None


def _known_functions(value: Value, seen: set | None = None) -> list[GlobalRef] | None:
    """The functions a value may be: a function name, or selects and phis of them (the
    optimizer merges calls that differ only in the function into one call on a select)."""
    seen = seen if seen is not None else set()
    if isinstance(value, GlobalRef):
        return [value]
    if value in seen or not isinstance(value, (SelectInst, PhiInst)):
        return None if value not in seen else []
    seen.add(value)
    options = value.operands[1:] if isinstance(value, SelectInst) else [v for v, _ in value.incoming]
    found: list[GlobalRef] = []
    for option in options:
        more = _known_functions(option, seen)
        if more is None:
            return None
        found += [f for f in more if f.name not in {g.name for g in found}]
    return found


def _targets(module: Module, call: CallInst, where: str, first: int) -> list[Function]:
    callee = call.args[first] if len(call.args) > first else None
    where = f"{call.called_name.split('.')[0]} in {where}"
    known = _known_functions(callee) if callee is not None else None
    if not known:
        raise LtoadError(f"{where}: the first argument must be a function "
                         "known at link time (a function name, possibly cast to void *)")
    targets = []
    for ref in known:
        if ref.name in module.functions:
            targets.append(module.parse_function(ref.name))
        elif ref.name in module.declarations:
            targets.append(module.parse_declaration(ref.name))
        else:
            raise LtoadError(f"{where}: '{ref.name}' is not a function")
    if len({t.function_type for t in targets}) > 1:
        raise LtoadError(f"{where}: the function is chosen at run time among functions of "
                         f"different types ({', '.join(t.name for t in targets)})")
    return targets


def _widened(call: CallInst, value: Value) -> Value:
    """An integer argument as i64 (sign-extended before `call` when narrower)."""
    if value.type == I64:
        return value
    cast = CastInst("sext", value, I64)
    block = call.parent
    block.insert(block.instructions.index(call), cast)
    return cast


def rewrite_requests(module: Module) -> list[Request]:
    """Replace every API call by a call to its `__ltoad_request.N`; return the requests."""
    requests: list[Request] = []
    for name in module.functions:
        if "@__enzyme_" not in module.function_text(name):
            continue
        function = module.parse_function(name)
        for call in [i for i in function.instructions() if isinstance(i, CallInst)]:
            mode = entry_mode(call.called_name)
            if mode is not None:
                requests.append(_rewrite(module, function, call, mode, len(requests)))
    return requests


def _rewrite(module: Module, function: Function, call: CallInst, mode: str, index: int) -> Request:
    where = describe(module, function.name, call)
    sret_type = _sret_type(module, call)
    first = 1 if sret_type is not None else 0
    targets = _targets(module, call, where, first)
    target = targets[0]
    reader = _CallReader(call, target, where, first, mode)
    width = reader.read_width()
    activities, values = reader.read(width)
    request = Request(index, mode, target.name, tuple(activities), call.type,
                      f"{call.called_name.split('.')[0]} in {where}", sret_type, width,
                      tuple(t.name for t in targets[1:]))
    values = [_widened(call, v) if v in reader.strides else v for v in values]
    args = [*call.args[:first + 1], *values]
    new_type = FunctionType(call.type, tuple(a.type for a in args), False)
    replacement = CallInst(new_type, GlobalRef(request.symbol), args)
    replacement.metadata = [m for m in call.metadata if m[0] == "dbg"]
    block = call.parent
    block.insert(block.instructions.index(call), replacement)
    call.replace_all_uses_with(replacement)
    name = call.name
    call.erase()
    replacement.name = name
    module.append(f"declare {new_type.ret} @\"{request.symbol}\"("
                  f"{', '.join(str(a.type) for a in args)})\n")
    return request
