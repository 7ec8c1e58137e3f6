"""Control flow: block order, dominators, natural loops, and splitting an edge.

Dominators follow Cooper, Harvey and Kennedy ("A Simple, Fast Dominance Algorithm", 2001):
iterate `idom(b) = intersect(idom(p) for processed predecessors p)` in reverse postorder until
nothing changes. A back edge is an edge `latch -> header` whose header dominates the latch; the
natural loop of a header is the header plus every block that reaches one of its latches without
passing the header. Irreducible cycles have no such header and are not loops here.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..ir.function import Block, Function
from ..ir.instructions import BranchInst, PhiInst, SwitchInst


def reverse_postorder(function: Function) -> list[Block]:
    """Blocks with every definition before its uses (phis aside); unreachable blocks last."""
    order = _reachable_in_reverse_postorder(function)
    reached = set(order)
    return order + [b for b in function.blocks if b not in reached]


def _reachable_in_reverse_postorder(function: Function) -> list[Block]:
    order: list[Block] = []
    seen = {function.entry}
    stack = [(function.entry, iter(function.entry.successors))]
    while stack:
        block, successors = stack[-1]
        successor = next(successors, None)
        if successor is None:
            order.append(block)
            stack.pop()
        elif successor not in seen:
            seen.add(successor)
            stack.append((successor, iter(successor.successors)))
    order.reverse()
    return order


def immediate_dominators(function: Function) -> dict[Block, Block | None]:
    """idom of every reachable block (the entry maps to None)."""
    order = _reachable_in_reverse_postorder(function)
    number = {block: index for index, block in enumerate(order)}
    idom: dict[Block, Block | None] = {function.entry: function.entry}

    def intersect(a: Block, b: Block) -> Block:
        while a is not b:
            while number[a] > number[b]:
                a = idom[a]
            while number[b] > number[a]:
                b = idom[b]
        return a

    changed = True
    while changed:
        changed = False
        for block in order[1:]:
            processed = [p for p in block.predecessors if p in idom]
            new = processed[0]
            for predecessor in processed[1:]:
                new = intersect(predecessor, new)
            if idom.get(block) is not new:
                idom[block] = new
                changed = True
    idom[function.entry] = None
    return idom


def dominates(idom: dict[Block, Block | None], a: Block, b: Block | None) -> bool:
    """Whether every path from the entry to `b` passes through `a`."""
    while b is not None:
        if b is a:
            return True
        b = idom.get(b)
    return False


@dataclass(eq=False)
class Loop:
    """A natural loop: its header, its blocks (header included) and the loop around it."""
    header: Block
    blocks: set[Block]
    parent: "Loop | None" = None
    latches: list[Block] = field(default_factory=list)
    _exits: list[Block] | None = field(default=None, repr=False)

    def exits(self) -> list[Block]:
        """Blocks outside the loop that a block inside branches to, in block order (computed
        once: a loop describes the graph as it was when the forest was made)."""
        if self._exits is None:
            found = {s: None for b in self.blocks for s in b.successors if s not in self.blocks}
            position = {block: i for i, block in enumerate(self.header.parent.blocks) if block in found}
            self._exits = sorted(found, key=position.__getitem__)
        return self._exits

    def entries(self) -> list[Block]:
        """The header's predecessors outside the loop."""
        return [p for p in self.header.predecessors if p not in self.blocks]

    def depth(self) -> int:
        return 1 + (self.parent.depth() if self.parent else 0)


class LoopForest:
    """Every natural loop of a function, and the innermost loop of each block."""

    def __init__(self, function: Function):
        self.idom = immediate_dominators(function)
        by_header: dict[Block, Loop] = {}
        for block in function.blocks:
            for successor in block.successors:
                if block in self.idom and dominates(self.idom, successor, block):
                    loop = by_header.setdefault(successor, Loop(successor, {successor}))
                    loop.latches.append(block)
                    loop.blocks |= _reaching(block, successor, self.idom)
        self.loops = sorted(by_header.values(), key=lambda l: len(l.blocks))
        self.innermost: dict[Block, Loop] = {}
        for loop in self.loops:                   # smallest first: the first one seen is innermost
            for block in loop.blocks:
                self.innermost.setdefault(block, loop)
        for loop in self.loops:
            loop.parent = next((outer for outer in self.loops if outer is not loop
                                and loop.header in outer.blocks
                                and len(outer.blocks) > len(loop.blocks)), None)

    def enclosing(self, block: Block) -> list[Loop]:
        """The loops containing `block`, innermost first."""
        loops = []
        loop = self.innermost.get(block)
        while loop is not None:
            loops.append(loop)
            loop = loop.parent
        return loops


def _reaching(latch: Block, header: Block, reachable) -> set[Block]:
    """Blocks that reach `latch` without passing `header` (the body of one back edge)."""
    body = {header, latch}
    work = [latch] if latch is not header else []
    while work:
        for predecessor in work.pop().predecessors:
            if predecessor not in body and predecessor in reachable:
                body.add(predecessor)
                work.append(predecessor)
    return body


def blocks_in_cycles(function: Function) -> set[Block]:
    """Blocks on some cycle of the control flow graph, natural loop or not (Tarjan's strongly
    connected components, iteratively)."""
    index: dict[Block, int] = {}
    low: dict[Block, int] = {}
    stack: list[Block] = []
    on_stack: set[Block] = set()
    cyclic: set[Block] = set()
    for root in function.blocks:
        if root in index:
            continue
        work = [(root, iter(root.successors))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            block, successors = work[-1]
            successor = next(successors, None)
            if successor is not None:
                if successor not in index:
                    index[successor] = low[successor] = len(index)
                    stack.append(successor)
                    on_stack.add(successor)
                    work.append((successor, iter(successor.successors)))
                elif successor in on_stack:
                    low[block] = min(low[block], index[successor])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[block])
            if low[block] == index[block]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member is block:
                        break
                if len(component) > 1 or block in block.successors:
                    cyclic.update(component)
    return cyclic


def split_edge(source: Block, target: Block, name: str) -> Block | None:
    """Put a new block on the edge `source -> target` (placed after `source`) and return it;
    None when the edge cannot be split (not a branch or switch, or several edges)."""
    terminator = source.terminator
    if not isinstance(terminator, (BranchInst, SwitchInst)):
        return None
    positions = [i for i, op in enumerate(terminator.operands) if op is target]
    if len(positions) != 1:
        return None
    function = source.parent
    middle = Block(name)
    middle.parent = function
    function.blocks.insert(function.blocks.index(source) + 1, middle)
    middle.append(BranchInst([target]))
    terminator.set_operand(positions[0], middle)
    for phi in target.phis:
        _retarget_incoming(phi, source, middle)
    return middle


def _retarget_incoming(phi: PhiInst, old: Block, new: Block) -> None:
    for position, operand in enumerate(phi.operands):
        if position % 2 == 1 and operand is old:
            phi.set_operand(position, new)
