"""Generates derivative functions for requests, and for every active function they call.

Each (function, activities, active return) gets a pair `augmented_f.<code>` / `reverse_f.<code>`
sharing one tape (split mode), so calls across compilation units, indirect recursion and
repeated calls all work the same way. A request `__ltoad_request.N` becomes a small function
that makes a tape, runs the pair and returns the adjoints as the caller declared them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from ..diagnostics import LtoadError
from ..ir import Module
from ..ir.builder import Builder
from ..ir.function import Argument, Function
from ..ir.instructions import CallBase, CompareInst, SelectInst
from ..ir.parser import Parser
from ..ir.types import I8, I64, PTR, VOID, FloatType, FunctionType, NamedStructType, StructType, Type
from ..ir.values import ConstantInt, GlobalRef, Poison, Value
from . import special_functions, tape
from .activity import Activity
from .annotations import CustomGradient
from .custom import custom_split
from .forward_sweep import (MEMSET, MEMSET_DECLARATION, ForwardSweep, clone, strip_debug_info,
                            zero_call)
from .formulas import float_constant
from .knowledge import Knowledge
from .locations import describe
from .memory import region_kind, type_bytes
from .requests import Request, add_request_parameters
from .reverse_sweep import ReverseSweep, out_return_type
from .tangent_sweep import TangentSweep, VectorTangentSweep

_SYMBOL_USE = re.compile(r'@([-\w$.]+|"[^"]*")(?!\()')


def address_taken(text: str) -> set[str]:
    """Names used other than as a direct callee (`@f(`): function pointers, tables, vtables."""
    return {name.strip('"') for name in _SYMBOL_USE.findall(text)}


_GLOBAL_KIND = re.compile(r"\b(global|constant)\s")


def global_value_type(module: Module, name: str) -> Type:
    """The value type of global variable @name, read from its definition."""
    line = module.globals.get(name)
    match = _GLOBAL_KIND.search(line or "")
    if match is None:
        raise LtoadError(f"cannot find the definition of global '{name}'")
    return Parser(line, match.end(), len(line), module).parse_type()


HINT_CODES = {None: "", **{t: t.kind[0] for t in (FloatType("double"), FloatType("float"),
                                                  FloatType("x86_fp80"))}}
ACTIVITY_CODES = {"dup": "d", "dupnoneed": "d", "const": "c", "out": "o"}


@dataclass(frozen=True)
class CallSplit:
    augmented: str
    reverse: str
    activities: tuple[str, ...]
    active_return: bool
    shadow_return: bool = False     # the augmented function also returns its result's shadow

    def callee(self, sweep: str, target: Value, insert) -> Value:
        """The function to call for `sweep` ('augmented' or 'reverse')."""
        return GlobalRef(getattr(self, sweep))


@dataclass(frozen=True)
class IndirectSplit:
    """A call through a function pointer: the pair of whichever known function it points to."""
    candidates: tuple[tuple[str, CallSplit], ...]
    activities: tuple[str, ...]
    active_return: bool
    shadow_return: bool = False

    def callee(self, sweep: str, target: Value, insert) -> Value:
        """A chain of selects picking the pair member of the function `target` points to."""
        chosen: Value = GlobalRef(tape.UNKNOWN_TARGET)
        for name, split in self.candidates:
            same = insert(CompareInst("icmp", "eq", target, GlobalRef(name)))
            chosen = insert(SelectInst(same, GlobalRef(getattr(split, sweep)), chosen))
        return chosen


@dataclass(frozen=True)
class _Wrapper:
    """A request's function while it is built."""
    function: Function
    sret: Value | None
    primals: list[Value]
    shadows: list[Value]
    strides: list[Value | None]     # per shadow: the enzyme_dupv byte stride, or None
    builder: Builder


@dataclass(frozen=True)
class FunctionStats:
    active_instructions: int
    tape_bytes: int     # static: the entry record plus each block's frame once


class NeedShadowGlobals(Exception):
    """Raised when active values turn out to be stored in globals without shadows yet."""

    def __init__(self, names: set[str]):
        super().__init__(", ".join(sorted(names)))
        self.names = names


class NeedBodies(Exception):
    """Raised when active calls go to functions whose bodies exist only as embedded bitcode."""

    def __init__(self, names: set[str]):
        super().__init__(", ".join(sorted(names)))
        self.names = names


SHADOW_GLOBAL_SUFFIX = ".ltoad.shadow"


class Differentiator:
    def __init__(self, module: Module, knowledge: Knowledge,
                 custom: dict[str, CustomGradient] | None = None,
                 shadowed_globals: set[str] = frozenset(), native_body=lambda name: False):
        self.module = module
        self.native_body = native_body    # name -> True if its body can be fetched (embedded.py)
        self.shadowed_globals = set(shadowed_globals)
        self.global_shadows = {module.global_ref(name): GlobalRef(name + SHADOW_GLOBAL_SUFFIX)
                               for name in sorted(self.shadowed_globals)}
        self.knowledge = knowledge
        self.custom = custom or {}
        self.defined = set(module.functions) | set(self.custom) | set(special_functions.MODELS)
        self.models_added = False
        self.splits: dict[tuple, CallSplit] = {}
        self.request_targets: set[tuple] = set()
        self._address_taken: set[str] | None = None
        self.queue: list[tuple] = []
        self.forwards: dict[tuple, str] = {}
        self.forward_queue: list[tuple] = []
        self.stats: dict[str, FunctionStats] = {}
        self.augmented: dict[str, tuple[Function, Value]] = {}   # name -> (function, its tape)
        self.reverse_wrappers: list[tuple[Function, str]] = []    # (request wrapper, augmented)
        self.declarations: dict[str, str] = dict(tape.RUNTIME_DECLARATIONS)
        self.runtime: list[str] = [tape.RUNTIME, tape.REQUEST_RUNTIME, tape.FRESH_RUNTIME,
                                   tape.UNKNOWN_TARGET_RUNTIME,
                                   tape.LAST_TAPE_BYTES_DEFINITION]

    def split(self, name: str, activities: tuple[str, ...], active_return: bool,
              shadow_return: bool = False, hints: tuple = ()) -> CallSplit:
        key = (name, activities, active_return, shadow_return, hints)
        if key not in self.splits:
            code = "".join(ACTIVITY_CODES[a] for a in activities)
            code += ("_r" if active_return else "") + ("_s" if shadow_return else "")
            code += "".join(f"_{i}{HINT_CODES[h]}" for i, h in enumerate(hints) if h is not None)
            self.splits[key] = CallSplit(f"augmented_{name}.{code}", f"reverse_{name}.{code}",
                                         activities, active_return, shadow_return)
            self.queue.append(key)
            self.defined |= {self.splits[key].augmented, self.splits[key].reverse}
        return self.splits[key]

    def split_for_call(self, call: CallBase, activity: Activity) -> CallSplit | IndirectSplit:
        activities = tuple("dup" if activity.points_into_shadowed(a) else
                           "out" if a in activity.varied else "const" for a in call.args)
        shadow_return = call in activity.shadowed and call.type.is_pointer()
        active_return = call in activity.varied
        hints = self._argument_hints(call, activity)
        if call.called_name is not None:
            return self.split(call.called_name, activities, active_return, shadow_return, hints)
        candidates = tuple((name, self.split(name, activities, active_return, shadow_return))
                           for name in self.indirect_candidates(call.function_type))
        return IndirectSplit(candidates, activities, active_return, shadow_return)

    def _argument_hints(self, call: CallBase, activity: Activity) -> tuple:
        """For each pointer argument into float memory (as the caller sees it), the float type."""
        hints = []
        for arg in call.args:
            hint = None
            if activity.points_into_shadowed(arg):
                region = region_kind(activity.function, [arg], hints=activity.hints)
                hint = region.element if region.kind == "floats" else None
            hints.append(hint)
        return tuple(hints) if any(h is not None for h in hints) else ()

    def indirect_candidates(self, function_type) -> list[str]:
        """Functions whose address the program takes and whose type matches a call's."""
        if self._address_taken is None:
            self._address_taken = address_taken(str(self.module))
        found = []
        for name in sorted(self._address_taken & set(self.module.functions)):
            function = self.module.signature(name)
            if function.function_type == function_type and not self.knowledge.is_inactive(name):
                found.append(name)
        return found

    def generate_all(self) -> None:
        while self.queue or self.forward_queue:
            if self.queue:
                self._generate(*self.queue.pop(0))
            else:
                self._generate_forward(*self.forward_queue.pop(0))
        self._stack_tapes()

    def _stack_tapes(self) -> None:
        """Requests whose tape has a small static bound keep it on the stack (not those that
        are themselves differentiated: their derivatives were made from the heap-tape form)."""
        differentiated = {key[0] for key in self.splits} | {key[0] for key in self.forwards}
        for wrapper, augmented in self.reverse_wrappers:
            if wrapper.name in differentiated or augmented not in self.augmented:
                continue
            size = tape.most_pushed(*self.augmented[augmented], self.augmented)
            if size is not None and size <= tape.STACK_TAPE_LIMIT:
                tape.use_stack_tape(wrapper, max(size, 8))

    # ---- forward mode --------------------------------------------------------------------

    def forward(self, name: str, activities: tuple[str, ...], paired: bool, width: int = 1) -> str:
        """`fwddiff_f.<code>`: f with tangents along `width` directions; returns
        `{ y, dy_0, ... }` when `paired`."""
        key = (name, activities, paired, width)
        if key not in self.forwards:
            code = "".join(ACTIVITY_CODES[a] for a in activities) + ("_p" if paired else "")
            code += f"_w{width}" if width > 1 else ""
            self.forwards[key] = f"fwddiff_{name}.{code}"
            self.forward_queue.append(key)
            self.defined.add(self.forwards[key])      # differentiable in turn (higher order)
        return self.forwards[key]

    def forward_callee(self, call: CallBase, activity: Activity, has_tangent, width: int = 1):
        """The forward derivative a call inside a tangent sweep goes to: (callee builder,
        activities, paired). Arguments with tangents (floats, or integers holding float bits)
        and pointers into shadowed memory are dup. Through a pointer: a select chain over the
        known targets."""
        activities = tuple("dup" if activity.points_into_shadowed(a) or a in activity.varied
                           or has_tangent(a) else "const" for a in call.args)
        paired = (call in activity.varied and not call.type.is_pointer()) or \
            (call.type.is_pointer() and call in activity.shadowed)
        if call.called_name is not None:
            name = self.forward(call.called_name, activities, paired, width)
            return (lambda insert: GlobalRef(name)), activities, paired
        candidates = [(n, self.forward(n, activities, paired, width))
                      for n in self.indirect_candidates(call.function_type)]

        def choose(insert) -> Value:
            chosen: Value = GlobalRef(tape.UNKNOWN_TARGET)
            for name, derivative in candidates:
                same = insert(CompareInst("icmp", "eq", call.callee, GlobalRef(name)))
                chosen = insert(SelectInst(same, GlobalRef(derivative), chosen))
            return chosen
        return choose, activities, paired

    def _generate_forward(self, name: str, activities: tuple[str, ...], paired: bool,
                          width: int) -> None:
        if name in self.custom:
            raise LtoadError(f"cannot differentiate calls to '{name}' in forward mode: its custom "
                             "derivative (augmented, reverse) is for reverse mode")
        primal = self.module.parse_function(self._body_of(name))
        function = clone(primal, self.forwards[(name, activities, paired, width)], self.module)
        analysed = tuple("out" if act == "dup" and not arg.type.is_pointer() else act
                         for arg, act in zip(function.args, activities))
        activity = Activity(function, analysed, self.knowledge, self.defined,
                            self.indirect_candidates, tuple(self.global_shadows))
        self._check_differentiable(name, activity)
        where = lambda inst: describe(self.module, name, inst)   # noqa: E731
        sweep = TangentSweep(function, activities, activity, self.forward_callee, where,
                             self.global_shadows, self.module) if width == 1 else \
            VectorTangentSweep(function, activities, activity, self.forward_callee, where,
                               self.global_shadows, self.module, width)
        sweep.run()
        if paired:
            sweep.pair_returns()
        self.declarations.update(sweep.declarations)
        strip_debug_info(function)
        self.module.add_function(function)

    def _generate(self, name: str, activities: tuple[str, ...], active_return: bool,
                  shadow_return: bool, hints: tuple) -> None:
        split = self.splits[(name, activities, active_return, shadow_return, hints)]
        if name in self.custom:
            for function in custom_split(self.module, self.custom[name], split):
                self.module.add_function(function)
            return
        primal = self.module.parse_function(self._body_of(name))
        augmented = clone(primal, split.augmented, self.module)
        activity = Activity(augmented, activities, self.knowledge, self.defined,
                            self.indirect_candidates, tuple(self.global_shadows))
        activity.hints = {a: h for a, h in zip(augmented.args, hints) if h is not None}
        active = sum(i in activity.varied or i in activity.shadowed
                     for i in augmented.instructions())
        self._check_differentiable(name, activity)
        forward = ForwardSweep(augmented, activities, activity, self.split_for_call,
                               lambda inst: describe(self.module, name, inst), self.global_shadows,
                               self.module, hints)
        forward.run()
        if shadow_return:
            forward.return_shadows()
        top_level = (name, activities) in self.request_targets
        reverse = ReverseSweep(forward, split.reverse, activities, active_return,
                               top_level).run_sweep()
        forward.insert_pushes(reverse.needed)
        self._record_stats(name, active, reverse)
        record = forward.push_entry_record(reverse.record)
        forward.record_returns(reverse.numbered_returns)
        forward.push_record_offset(record)
        self.declarations.update(forward.declarations)
        self.declarations.update(reverse.declarations)
        strip_debug_info(augmented)
        self.module.add_function(augmented)
        self.module.add_function(reverse.rev)
        self.augmented[split.augmented] = (augmented, forward.tape)

    def _check_differentiable(self, name: str, activity: Activity) -> None:
        """Shadow globals, bodies from embedded bitcode, or a located error for what cannot be
        differentiated."""
        unshadowed = activity.globals_needing_shadow() - self.shadowed_globals
        if unshadowed:
            raise NeedShadowGlobals(unshadowed)
        unsupported = activity.undifferentiable_calls()
        elsewhere = {c.called_name for c, _ in unsupported if self.native_body(c.called_name)}
        if elsewhere:
            raise NeedBodies(elsewhere)
        for call, (what, why) in unsupported:
            raise LtoadError(f"cannot differentiate {what} in {describe(self.module, name, call)}: "
                             f"{why}; add a custom derivative or mark it enzyme_inactive")
        for store in activity.stores_needing_shadow():
            raise LtoadError(f"cannot differentiate {describe(self.module, name, store)}: an "
                             "active value is stored to memory ltoad has no shadow for "
                             "(a global variable?)")

    def _record_stats(self, name: str, active: int, reverse: ReverseSweep) -> None:
        """Active instructions and static tape bytes (entry record, each block's frame once)."""
        frames = sum(tape.frame_bytes(v) for v in reverse.needed.values())
        record = tape.frame_bytes(reverse.record) + (8 if reverse.record else 0)
        old = self.stats.get(name, FunctionStats(0, 0))
        self.stats[name] = FunctionStats(max(old.active_instructions, active),
                                         max(old.tape_bytes, frames + record))

    def _body_of(self, name: str) -> str:
        """The function whose body stands for `name`: itself, or ltoad's model of it."""
        name = tape.DIFFERENTIATED_AS.get(name, name)
        if name in self.module.functions or name not in special_functions.MODELS:
            return name
        if not self.models_added:
            self.module.append("\n".join(special_functions.MODELS.values()) + "\n")
            self.declarations.update(special_functions.MODEL_DECLARATIONS)
            self.models_added = True
        return special_functions.MODEL_PREFIX + name

    # ---- requests ------------------------------------------------------------------------

    def request(self, request: Request) -> Function:
        """Define `__ltoad_request.N(ptr f, values...)` for an Enzyme-style request. When f is
        chosen at run time among several functions, one wrapper per function and a dispatcher
        comparing `f` with each."""
        if not request.alternatives:
            return self._single_request(request)
        targets = (request.target, *request.alternatives)
        parts = [self._single_request(replace(request, target=t, alternatives=(), part=k))
                 for k, t in enumerate(targets)]
        for part in parts:
            self.module.add_function(part)
        return self._dispatcher(request, targets, parts)

    def _dispatcher(self, request: Request, targets, parts: list[Function]) -> Function:
        dispatcher = Function(request.symbol, request.return_type, prefix=["internal"])
        params = [dispatcher.add_argument(Argument(a.type, a.name)) for a in parts[0].args]
        fn = params[1 if request.sret_type is not None else 0]
        b = Builder(dispatcher.add_block("entry"))
        for target, part in zip(targets, parts):
            chosen, other = dispatcher.add_block(f"is.{len(dispatcher.blocks)}"), \
                dispatcher.add_block(f"next.{len(dispatcher.blocks)}")
            b.cond_br(b.icmp("eq", fn, GlobalRef(target)), chosen, other)
            b.position_at_end(chosen)
            result = b.call(GlobalRef(part.name), params, part.function_type)
            b.ret(None if request.return_type == VOID else result)
            b.position_at_end(other)
        b.call(GlobalRef(tape.UNKNOWN_TARGET), [], FunctionType(VOID, ()))
        b.unreachable()
        return dispatcher

    def _single_request(self, request: Request) -> Function:
        """`__ltoad_request.N` for one known function."""
        target = self.module.parse_function(request.target) if request.target in self.defined \
            else None
        if target is None:
            raise LtoadError(f"{request.origin}: '{request.target}' has no "
                             "body in the linked program")
        if request.mode == "forward":
            return self._forward_request(request, target)
        if request.mode in ("augment", "split-reverse"):
            return self._split_request(request, target)
        active_return = target.return_type.is_float()
        split = self.split(request.target, request.activities, active_return)
        self.request_targets.add((request.target, request.activities))
        w = self._new_wrapper(request, target)
        b = w.builder
        self._zero_shadow_globals(b)
        state = b.alloca(tape.TAPE_TYPE, name="tape")
        b.call(GlobalRef(tape.BEGIN), [state], FunctionType(VOID, (PTR,)))
        self._call_augmented(b, split, target, [*w.primals, *w.shadows], state)
        top = b.load(I64, b.gep(I8, state, [ConstantInt(I64, 8)]))
        b.store(top, GlobalRef(tape.LAST_TAPE_BYTES))
        seed = [float_constant(target.return_type, 1.0)] if active_return else []
        result, outs = self._call_reverse(b, split, request, w, seed, state)
        self._return_adjoints(b, request, result, outs, w.sret)
        self.reverse_wrappers.append((w.function, split.augmented))
        return w.function

    def _new_wrapper(self, request: Request, target: Function) -> "_Wrapper":
        """`__ltoad_request.N` with its parameters ([sret], fn, then the call's values) and a
        builder at its entry."""
        function = Function(request.symbol, request.return_type, prefix=["internal"])
        sret = function.add_argument(Argument(PTR, "sret")) if request.sret_type else None
        function.add_argument(Argument(PTR, "fn"))
        primals, shadows, strides = add_request_parameters(function, target.args,
                                                           request.activities)
        return _Wrapper(function, sret, primals, shadows, strides,
                        Builder(function.add_block("entry")))

    @staticmethod
    def _call_augmented(b: Builder, split, target: Function, args: list[Value], state) -> Value:
        args = [*args, state]
        return b.call(GlobalRef(split.augmented), args,
                      FunctionType(target.return_type, tuple(v.type for v in args)))

    @staticmethod
    def _call_reverse(b: Builder, split, request: Request, w: "_Wrapper", seed: list[Value],
                      state) -> tuple[Value, list[Type]]:
        """The reverse function's call, then the tape's end; (its result, the out types)."""
        outs = [p.type for p, a in zip(w.primals, request.activities) if a == "out"]
        args = [*w.primals, *w.shadows, *seed, state]
        result = b.call(GlobalRef(split.reverse), args,
                        FunctionType(out_return_type(outs), tuple(v.type for v in args)))
        b.call(GlobalRef(tape.END), [state], FunctionType(VOID, (PTR,)))
        return result, outs

    def _forward_request(self, request: Request, target: Function) -> Function:
        """`__ltoad_request.N(ptr f, values...)` for `__enzyme_fwddiff`: the tangent of f's
        result (shadows of dup pointers carry the tangents of what f writes). With
        `enzyme_width N` one width-N tangent function takes every direction (shadow k of an
        enzyme_dupv pointer is k strides past its first) and the N tangents come back as a
        struct."""
        paired = target.return_type.is_float()
        activities = tuple("dup" if a == "dupv" else a for a in request.activities)
        name = self.forward(request.target, activities, paired, request.width)
        w = self._new_wrapper(request, target)
        b = w.builder
        self._zero_shadow_globals(b)
        width = request.width
        returns = StructType((target.return_type,) * (width + 1)) if paired else target.return_type
        args = list(w.primals)
        for k in range(width):     # direction k: k strides past each enzyme_dupv shadow
            args += [b.gep(I8, shadow, [b.binary("mul", stride, ConstantInt(I64, k))])
                     if stride is not None and k else shadow
                     for shadow, stride in zip(w.shadows, w.strides)]
        result = b.call(GlobalRef(name), args, FunctionType(returns, tuple(a.type for a in args)))
        tangents = [b.extractvalue(result, [k]) for k in range(1, width + 1)] if paired else []
        self._return_tangents(b, request, target, tangents, w.sret)
        return w.function

    def _return_tangents(self, b: Builder, request: Request, target: Function, tangents,
                         sret) -> None:
        if request.width > 1 and tangents:
            natural = StructType((target.return_type,) * request.width)
            packed: Value = Poison(natural)
            for k, tangent in enumerate(tangents):
                packed = b.insertvalue(packed, tangent, [k])
            self._return_adjoints(b, request, packed, list(natural.elements), sret)
        elif request.sret_type is not None or (tangents and request.return_type not in
                                               (VOID, target.return_type)):
            raise LtoadError(f"{request.origin}: it is declared to return {request.return_type}, "
                             f"but the tangent of '{request.target}' is {target.return_type}")
        elif request.return_type == VOID:
            b.ret()
        else:
            b.ret(tangents[0] if tangents else float_constant(request.return_type, 0.0))

    def _split_request(self, request: Request, target: Function) -> Function:
        """`__enzyme_augmentfwd` runs the augmented function on a tape of its own and returns
        it (with f's result when the caller expects `{ ptr, T }`); `__enzyme_reverse` takes the
        same arguments, the result's adjoint if f returns a float, and that tape: it runs the
        reverse function, frees the tape and returns the adjoints like __enzyme_autodiff."""
        active_return = target.return_type.is_float()
        split = self.split(request.target, request.activities, active_return)
        w = self._new_wrapper(request, target)
        b = w.builder
        self.declarations.update(tape.SPLIT_DECLARATIONS)
        if request.mode == "augment":
            self._augment_request(b, request, target, split, [*w.primals, *w.shadows])
            return w.function
        seed = [w.function.add_argument(Argument(target.return_type, "dret"))] \
            if active_return else []
        state = w.function.add_argument(Argument(PTR, "tape"))
        result, outs = self._call_reverse(b, split, request, w, seed, state)
        b.call(GlobalRef("free"), [state], FunctionType(VOID, (PTR,)))
        self._return_adjoints(b, request, result, outs, w.sret)
        return w.function

    def _augment_request(self, b: Builder, request: Request, target: Function, split,
                         args: list[Value]) -> None:
        state = b.call(GlobalRef("malloc"), [ConstantInt(I64, type_bytes(tape.TAPE_TYPE))],
                       FunctionType(PTR, (I64,)))
        b.call(GlobalRef(tape.BEGIN), [state], FunctionType(VOID, (PTR,)))
        self._zero_shadow_globals(b)
        result = self._call_augmented(b, split, target, args, state)
        if request.return_type == PTR:
            b.ret(state)
        elif request.return_type == StructType((PTR, target.return_type)):
            pair = b.insertvalue(Poison(request.return_type), state, [0])
            b.ret(b.insertvalue(pair, result, [1]))
        else:
            raise LtoadError(f"{request.origin}: it must return the tape (void *), or a struct of "
                             f"the tape and f's result; it is declared to return {request.return_type}")


    def shadow_global_definitions(self) -> list[str]:
        """`@g.ltoad.shadow = internal global T zeroinitializer` for each shadowed global."""
        return [f'@"{shadow.name}" = internal global {global_value_type(self.module, name)} '
                'zeroinitializer, align 16'
                for name, shadow in zip(sorted(self.shadowed_globals), self.global_shadows.values())]

    def _zero_shadow_globals(self, b: Builder) -> None:
        """Each request starts from zero adjoints in the globals' shadows."""
        for name, shadow in zip(sorted(self.shadowed_globals), self.global_shadows.values()):
            size = type_bytes(global_value_type(self.module, name))
            self.declarations[MEMSET] = MEMSET_DECLARATION
            b.insert(zero_call(shadow, ConstantInt(I64, size)))

    def _return_adjoints(self, b: Builder, request: Request, result, outs: list[Type],
                         sret) -> None:
        """Give the adjoints back as the caller declared: directly, as a struct, through a
        hidden struct pointer, or in the registers the C ABI packs a small struct into."""
        wanted = request.sret_type or request.return_type
        natural = out_return_type(outs)
        if wanted == VOID or (not outs and wanted.is_float()):
            b.ret(float_constant(wanted, 0.0) if wanted != VOID else None)
        elif wanted == natural or (isinstance(wanted, NamedStructType) and wanted.body == natural):
            if sret is None:
                b.ret(result)
            else:
                b.store(result, sret)
                b.ret()
        elif outs and type_bytes(wanted) >= type_bytes(natural):
            if sret is not None:            # the same bytes, straight into the caller's memory
                b.store(result, sret)
                b.ret()
                return
            memory = b.alloca(wanted)
            b.store(result, memory)
            b.ret(b.load(wanted, memory))
        else:
            got = ", ".join(map(str, outs)) or "nothing"
            raise LtoadError(f"{request.origin}: it is declared to return "
                             f"{wanted}, but the active (enzyme_out) arguments give {got}")
