"""Split functions for a function with a user-written derivative (Enzyme's registration).

ltoad's internal pair `augmented_f.<code>(args, shadows, tape)` / `reverse_f.<code>(args,
shadows, [d_ret], tape)` becomes two thin calls with Enzyme's custom-derivative convention:
`f_aug(a0, [da0], a1, ...)` returns f's result, `f_rev(a0, [da0], a1, ..., [d_ret])` returns the
adjoints of the active scalar arguments (a struct when there are several).
"""

from __future__ import annotations

from ..diagnostics import LtoadError
from ..ir import Module
from ..ir.builder import Builder
from ..ir.function import Argument, Function
from ..ir.types import PTR, VOID, FunctionType, Type
from ..ir.values import GlobalRef, Value
from .annotations import CustomGradient
from .reverse_sweep import out_return_type


def _signature(module: Module, name: str) -> Function:
    if name in module.functions:
        return module.parse_function(name)
    if name in module.declarations:
        return module.parse_declaration(name)
    raise LtoadError(f"custom derivative '{name}' is not defined in the linked program")


def _interleaved(args: list[Argument], shadows: dict[int, Argument]) -> list[Value]:
    values: list[Value] = []
    for index, arg in enumerate(args):
        values.append(arg)
        if index in shadows:
            values.append(shadows[index])
    return values


def _check(function: Function, values: list[Value], returns: Type, role: str) -> None:
    wanted = FunctionType(returns, tuple(v.type for v in values))
    if function.function_type != wanted:
        raise LtoadError(f"custom {role} '{function.name}' has type {function.function_type}; "
                         f"ltoad calls it as {wanted}")


def custom_split(module: Module, custom: CustomGradient, split) -> tuple[Function, Function]:
    primal = _signature(module, custom.function)
    made = []
    for role, name in (("augmented", split.augmented), ("reverse", split.reverse)):
        function = Function(name, VOID, prefix=["internal"])
        args = [function.add_argument(Argument(a.type, f"a{i}")) for i, a in enumerate(primal.args)]
        dup = [i for i, act in enumerate(split.activities) if act in ("dup", "dupnoneed")]
        shadows = {i: function.add_argument(Argument(primal.args[i].type, f"d{i}")) for i in dup}
        values = _interleaved(args, shadows)
        if role == "reverse":
            if split.active_return:
                values.append(function.add_argument(Argument(primal.return_type, "d.return")))
            outs = [a.type for a, act in zip(args, split.activities) if act == "out"]
            function.return_type = out_return_type(outs)
            target = _signature(module, custom.reverse)
        else:
            function.return_type = primal.return_type
            target = _signature(module, custom.augmented)
        function.add_argument(Argument(PTR, "tape"))
        _check(target, values, function.return_type, role)
        b = Builder(function.add_block("entry"))
        result = b.call(GlobalRef(target.name), values, target.function_type)
        b.ret(None if function.return_type == VOID else result)
        made.append(function)
    return made[0], made[1]
