"""`ltoad explain`: a function's IR annotated with what the differentiator sees.

Each instruction is printed with its activity (`active` float values, `shadow` pointers into
differentiated memory, `const` otherwise) and, for memory accesses, the type the bytes carry.
"""

from __future__ import annotations

from ..diagnostics import LtoadError
from ..ir import Module, print_instruction
from ..ir.instructions import Instruction, LoadInst, StoreInst
from . import knowledge
from .activity import Activity
from .memory import region_kind
from .requests import default_activity

ACTIVITIES = ("dup", "dupnoneed", "const", "out")


def _memory_note(function, inst: Instruction) -> str:
    if isinstance(inst, LoadInst):
        return f"reads {inst.type}"
    if isinstance(inst, StoreInst):
        return f"writes {inst.value.type}"
    name = getattr(inst, "called_name", None) or ""
    if name.startswith(("llvm.memcpy", "llvm.memmove")):
        region = region_kind(function, list(inst.args[:2]))
        return f"copies {region.element or region.kind.replace('_', ' ')}"
    return ""


def _label(activity: Activity, inst: Instruction) -> str:
    if inst in activity.varied:
        return "active"
    if inst in activity.shadowed:
        return "shadow"
    return "const"


def explain(module: Module, name: str, activities: list[str] | None) -> str:
    if name not in module.functions:
        raise LtoadError(f"no function '{name}' defined in the module")
    function = module.parse_function(name)
    if activities is None:
        activities = [default_activity(a.type) for a in function.args]
    if len(activities) != len(function.args) or set(activities) - set(ACTIVITIES):
        raise LtoadError(f"--args needs {len(function.args)} activities among "
                         f"{', '.join(ACTIVITIES)}, got {','.join(activities)}")
    activity = Activity(function, tuple(activities), knowledge.default(), set(module.functions))
    lines = [f"function '{name}' with arguments "
             + ", ".join(f"{a.type} {act}" for a, act in zip(function.args, activities))]
    for block in function.blocks:
        lines.append(f"{block.name or 'block'}:")
        for inst in block.instructions:
            note = _memory_note(function, inst)
            tag = f"[{_label(activity, inst)}{', ' + note if note else ''}]"
            lines.append(f"  {tag:<28} {print_instruction(inst).strip()}")
    for _call, (what, why) in activity.undifferentiable_calls():
        lines.append(f"cannot differentiate {what}: {why}")
    return "\n".join(lines)
