"""Dominators, natural loops and edge splitting (ltoad/analysis/loops.py), and what the reverse
sweep reads from them (ltoad/ad/reverse_control.py): kept values, counted loops, induction
variables and branches that tell which edge a block was entered along."""

from ltoad.ad.reverse_control import ReverseControl, dedicate_exits
from ltoad.analysis.loops import LoopForest, blocks_in_cycles, dominates, split_edge
from ltoad.ir import parse_function, print_function

NESTED = """\
define double @nested(ptr %x, i32 %n) {
entry:
  %empty = icmp sle i32 %n, 0
  br i1 %empty, label %done, label %outer

outer:
  %i = phi i32 [ 0, %entry ], [ %i.next, %outer.latch ]
  %s = phi double [ 0.0, %entry ], [ %s.inner, %outer.latch ]
  br label %inner

inner:
  %j = phi i64 [ 7, %outer ], [ %j.next, %inner ]
  %t = phi double [ %s, %outer ], [ %t.next, %inner ]
  %p = getelementptr double, ptr %x, i64 %j
  %v = load double, ptr %p
  %t.next = fadd double %t, %v
  %j.next = add nsw i64 %j, -2
  %more = icmp sgt i64 %j.next, 0
  br i1 %more, label %inner, label %outer.latch

outer.latch:
  %s.inner = phi double [ %t.next, %inner ]
  %i.next = add i32 %i, 1
  %again = icmp slt i32 %i.next, %n
  br i1 %again, label %outer, label %done

done:
  %r = phi double [ 0.0, %entry ], [ %s.inner, %outer.latch ]
  ret double %r
}
"""

BRANCHES = """\
define double @branches(double %x, i1 %c, i1 %d) {
entry:
  br i1 %c, label %then, label %join

then:
  %y = fmul double %x, %x
  br label %join

join:
  %z = phi double [ %y, %then ], [ %x, %entry ]
  br i1 %d, label %left, label %right

left:
  br label %merge

right:
  br label %merge

merge:
  ret double %z
}
"""

IRREDUCIBLE = """\
define void @irreducible(i1 %c) {
entry:
  br i1 %c, label %a, label %b

a:
  br i1 %c, label %b, label %out

b:
  br i1 %c, label %a, label %out

out:
  ret void
}
"""

RETURN_INSIDE = """\
define i32 @search(ptr %x, i32 %n) {
entry:
  br label %loop

loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %next ]
  %p = getelementptr i32, ptr %x, i32 %i
  %v = load i32, ptr %p
  %hit = icmp eq i32 %v, 0
  br i1 %hit, label %found, label %next

found:
  ret i32 %i

next:
  %i.next = add i32 %i, 1
  %more = icmp slt i32 %i.next, %n
  br i1 %more, label %loop, label %missing

missing:
  ret i32 -1
}
"""


def parse(text):
    return parse_function(text, 0, len(text))


def blocks(function):
    return {b.name: b for b in function.blocks}


def test_nested_loops_have_headers_bodies_parents_and_exits():
    f = parse(NESTED)
    b = blocks(f)
    forest = LoopForest(f)
    inner, outer = forest.loops
    assert inner.header is b["inner"] and inner.blocks == {b["inner"]}
    assert outer.header is b["outer"] and outer.blocks == {b["outer"], b["inner"], b["outer.latch"]}
    assert inner.parent is outer and outer.parent is None
    assert forest.enclosing(b["inner"]) == [inner, outer]
    assert inner.exits() == [b["outer.latch"]] and outer.exits() == [b["done"]]
    assert dominates(forest.idom, b["outer"], b["outer.latch"])
    assert not dominates(forest.idom, b["outer"], b["done"])


def test_irreducible_cycles_are_not_loops():
    assert LoopForest(parse(IRREDUCIBLE)).loops == []


def test_split_edge_moves_phi_incoming_to_the_new_block():
    f = parse(NESTED)
    b = blocks(f)
    middle = split_edge(b["outer.latch"], b["done"], "done.split")
    assert middle.predecessors == [b["outer.latch"]]
    assert sorted(p.name for p in b["done"].predecessors) == ["done.split", "entry"]
    assert "[ %s.inner, %done.split ]" in print_function(f)


def test_exits_shared_with_outside_are_split_so_the_loop_keeps_values():
    f = parse(NESTED)
    original = {block: list(block.instructions) for block in f.blocks}
    assert {loop.header.name for loop in ReverseControl(f).keeping} == {"inner"}  # `done` shared
    dedicate_exits(f, original)
    control = ReverseControl(f)
    b = blocks(f)
    outer = control.forest.innermost[b["outer"]]
    assert outer in control.keeping and len(original) == len(f.blocks)
    assert control.keeping_loop(b["entry"], b["inner"]) is outer      # the outermost one
    assert control.keeping_loop(b["outer"], b["inner"]).header is b["inner"]
    assert control.keeping_loop(b["inner"], b["inner"]) is None


def test_counted_loops_and_their_induction_variables():
    f = parse(NESTED)
    dedicate_exits(f, {block: list(block.instructions) for block in f.blocks})
    control = ReverseControl(f)
    b = blocks(f)
    values = {i.name: i for i in f.instructions() if i.name}
    inner = control.counted(b["inner"])
    assert inner is not None and control.counted(b["outer.latch"]) is None
    loop, start, step = control.induction(values["j"], b["inner"])
    assert loop is inner and start.value == 7 and step.value == -2
    assert control.induction(values["i"], b["inner"])[0].header is b["outer"]
    assert control.induction(values["t"], b["inner"]) is None       # float phi
    assert control.induction(values["j"], b["outer.latch"]) is None   # not inside its loop
    count = control.count(inner)
    assert count.parent is b["inner"] and count is b["inner"].phis[-1]


def test_branch_conditions_tell_triangles_and_diamonds_apart():
    f = parse(BRANCHES)
    b = blocks(f)
    control = ReverseControl(f)
    condition, if_true, if_false = control.deciding_branch(b["join"])
    assert condition is f.args[1] and if_true is b["then"] and if_false is b["entry"]
    condition, if_true, if_false = control.deciding_branch(b["merge"])
    assert condition is f.args[2] and if_true is b["left"] and if_false is b["right"]


def test_a_loop_left_by_a_return_keeps_values_and_counts():
    f = parse(RETURN_INSIDE)
    b = blocks(f)
    control = ReverseControl(f)
    loop = control.counted(b["loop"])
    assert loop is not None and loop in control.keeping
    assert loop.exits() == [b["found"], b["missing"]]
    assert control.deciding_branch(b["loop"]) is None


def test_cycles_include_irreducible_ones_and_self_loops():
    f = parse(IRREDUCIBLE)
    b = blocks(f)
    assert blocks_in_cycles(f) == {b["a"], b["b"]}
    nested = parse(NESTED)
    assert {block.name for block in blocks_in_cycles(nested)} == {"outer", "inner", "outer.latch"}


def test_a_loop_leaving_at_a_bound_needs_no_taped_count():
    f = parse(NESTED.replace("icmp slt i32 %i.next, %n", "icmp ne i32 %i.next, %n"))
    dedicate_exits(f, {block: list(block.instructions) for block in f.blocks})
    control = ReverseControl(f)
    b = blocks(f)
    assert control.final_count(control.counted(b["inner"])) is None        # sgt: not an equality
    start, step, bound = control.final_count(control.counted(b["outer"]))  # i + 1 != n
    assert start.value == 0 and step.value == 1 and bound is f.args[1]
