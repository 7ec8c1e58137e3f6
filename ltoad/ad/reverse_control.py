"""How the reverse sweep finds its way back through loops and branches without taping it.

A value defined outside a loop is the same in every iteration. Instead of taping it in each
block of the loop that needs it (once per iteration), the forward sweep pushes it once where the
loop exits and the reverse sweep keeps it in a stack slot while it runs the loop backwards.
That needs loops the reverse can only enter through an exit: every exit block reached from
inside the loop only (edges are split to make it so).

Such a loop whose header has one entry edge and one latch also counts its iterations,
`count = phi [0, entry], [count + 1, latch]`, pushed at its exits like any other value (or,
when the loop leaves once `iv + step == bound`, computed from start, step and bound). Its
reverse goes back around while the count is not zero (instead of popping, every iteration, which
edge the header was reached along), and an induction variable `iv = phi [start, entry],
[iv + step, latch]` with a constant step is rebuilt as `start + count * step`.

A block with two predecessors below a two-way branch (an if-then triangle or an if-else diamond
in one iteration of the same loop) was entered along the edge that the branch's condition
chose: the reverse asks for that condition (often rebuilt for free) instead of a taped marker.
"""

from __future__ import annotations

from ..analysis.loops import Loop, LoopForest, dominates, split_edge
from ..ir.function import Block, Function
from ..ir.instructions import BinaryOperator, BranchInst, CompareInst, Instruction, PhiInst
from ..ir.types import I64, IntType
from ..ir.values import ConstantInt, Value


def dedicate_exits(function: Function, original: dict[Block, list[Instruction]]) -> None:
    """Split every edge that leaves a loop for a block also reached from outside it, so each
    exit is entered from its loop only (the new blocks join `original` empty-handed)."""
    edges: dict[tuple[Block, Block], None] = {}
    for loop in LoopForest(function).loops:
        for exit in loop.exits():
            if any(p not in loop.blocks for p in exit.predecessors):
                edges.update({(p, exit): None for p in exit.predecessors if p in loop.blocks})
    for number, (source, target) in enumerate(edges):
        middle = split_edge(source, target, f"{target.name or 'exit'}.loop.exit.{number}")
        if middle is not None:
            original[middle] = list(middle.instructions)


class ReverseControl:
    """Which loops keep values across their reverse, their iteration counts, and which branches
    tell the reverse where a block was entered from."""

    def __init__(self, function: Function):
        self.forest = LoopForest(function)
        self.keeping = {loop for loop in self.forest.loops if _can_keep(loop)}
        self.counts: dict[Loop, PhiInst] = {}
        self.decisions: dict[Block, tuple[Value, Block, Block] | None] = {}

    def dominates(self, a: Block, b: Block) -> bool:
        return dominates(self.forest.idom, a, b)

    def keeping_loop(self, definition: Block, use: Block) -> Loop | None:
        """The outermost loop around `use`, without `definition`, that can keep the value."""
        found = None
        for loop in self.forest.enclosing(use):
            if definition in loop.blocks:
                break
            if loop in self.keeping:
                found = loop
        return found

    def counted(self, header: Block) -> Loop | None:
        """The loop `header` heads, when it is counted."""
        loop = self.forest.innermost.get(header)
        if loop is None or loop.header is not header or loop not in self.keeping:
            return None
        if len(loop.latches) != 1 or len(loop.entries()) != 1 or len(header.predecessors) != 2:
            return None
        return loop

    def count(self, loop: Loop) -> PhiInst:
        """The iteration count of a counted loop (made in the forward sweep on first use)."""
        if loop not in self.counts:
            header = loop.header
            count = PhiInst(I64, [(ConstantInt(I64, 0), loop.entries()[0])])
            following = BinaryOperator("add", count, ConstantInt(I64, 1), ["nuw"])
            count.add_incoming(following, loop.latches[0])
            header.insert(len(header.phis), count)
            header.insert(len(header.phis), following)
            self.counts[loop] = count
        return self.counts[loop]

    def induction(self, value: Value, use: Block) -> tuple[Loop, Value, ConstantInt] | None:
        """(loop, start, step) when `value` is an induction variable of a counted loop around
        `use`: `phi [start, entry], [value + step, latch]`."""
        if not isinstance(value, PhiInst) or not isinstance(value.type, IntType):
            return None
        loop = self.counted(value.parent)
        if loop is None or use not in loop.blocks or len(value.incoming) != 2:
            return None
        start = value.incoming_value(loop.entries()[0])
        following = value.incoming_value(loop.latches[0])
        if not (isinstance(following, BinaryOperator) and following.opcode == "add"):
            return None
        left, right = following.operands
        step = right if left is value else left if right is value else None
        if not isinstance(step, ConstantInt) or start is None:
            return None
        return loop, start, step

    def final_count(self, loop: Loop) -> tuple[Value, ConstantInt, Value] | None:
        """(start, step, bound) when a counted loop leaves only from its latch, once
        `iv + step == bound` for an induction variable `iv` whose step is a power of two and a
        bound set before the loop: the last iteration's count is `(bound - start) / step - 1`,
        with nothing taped."""
        latch = loop.latches[0]
        branch = latch.terminator
        if len(loop.exits()) != 1 or not isinstance(branch, BranchInst) \
                or not branch.is_conditional or not self._leaves_only_from(loop, latch):
            return None
        compare = branch.condition
        stays = {"eq": branch.operands[2], "ne": branch.operands[1]}
        if not isinstance(compare, CompareInst) or compare.opcode != "icmp" \
                or stays.get(compare.predicate) is not loop.header:
            return None
        for following, bound in (compare.operands, tuple(reversed(compare.operands))):
            if _defined_inside(bound, loop):
                continue
            for phi in loop.header.phis:
                found = self.induction(phi, latch)
                if found is None or phi.incoming_value(latch) is not following:
                    continue
                step = abs(found[2].value)
                if step & (step - 1) == 0:
                    return found[1], found[2], bound
        return None

    @staticmethod
    def _leaves_only_from(loop: Loop, latch: Block) -> bool:
        return all(s in loop.blocks for b in loop.blocks if b is not latch for s in b.successors)

    def deciding_branch(self, block: Block) -> tuple[Value, Block, Block] | None:
        """(condition, predecessor when true, predecessor when false) when the edge `block` was
        entered along follows from the condition of the branch in its immediate dominator
        (found once per block: the sweeps ask for it again and again, and the graph is fixed)."""
        if block not in self.decisions:
            self.decisions[block] = self._deciding_branch(block)
        return self.decisions[block]

    def _deciding_branch(self, block: Block) -> tuple[Value, Block, Block] | None:
        predecessors = block.predecessors
        decider = self.forest.idom.get(block)
        branch = decider.terminator if decider is not None else None
        if len(predecessors) != 2 or not isinstance(branch, BranchInst) or not branch.is_conditional:
            return None
        loop = self.forest.innermost.get(block)
        if any(self.forest.innermost.get(b) is not loop for b in (decider, *predecessors)):
            return None
        if_true, if_false = branch.operands[1:]
        true_side = [p for p in predecessors if self._entered_via(p, decider, if_true, block)]
        false_side = [p for p in predecessors if self._entered_via(p, decider, if_false, block)]
        if if_true is if_false or len(true_side) != 1 or len(false_side) != 1 \
                or true_side[0] is false_side[0]:
            return None
        return branch.condition, true_side[0], false_side[0]

    def _entered_via(self, predecessor: Block, decider: Block, successor: Block, block: Block) -> bool:
        """Whether coming to `block` from `predecessor` means `decider` branched to `successor`:
        the edge itself, or `successor` (entered only from `decider`, or around its own loop)
        dominates `predecessor`."""
        if successor is block:
            return predecessor is decider
        idom = self.forest.idom
        entered_from_decider = all(p is decider or dominates(idom, successor, p)
                                   for p in successor.predecessors)
        return entered_from_decider and dominates(idom, successor, predecessor)


def _can_keep(loop: Loop) -> bool:
    """Whether the reverse enters `loop` only through its exits, each reached from the loop only
    (a block returning has no successor, so it is never inside a loop: it is an exit)."""
    return all(p in loop.blocks for exit in loop.exits() for p in exit.predecessors)


def _defined_inside(value: Value, loop: Loop) -> bool:
    return getattr(value, "parent", None) in loop.blocks
