"""The IR model: use lists, accessors, the builder, located errors and lazy module parsing."""

import ctypes
import re

import llvmlite.binding as llvm
import pytest

from ltoad import ir
from ltoad.diagnostics import LtoadError
from ltoad.ir import (
    Argument,
    Function,
    IRParseError,
    Module,
    parse_function,
    parse_module,
    print_function,
    print_instruction,
)
from ltoad.ir.builder import Builder, constant
from ltoad.ir.instructions import (
    AllocaInst,
    CallInst,
    CompareInst,
    GetElementPtrInst,
    LoadInst,
    ShuffleVectorInst,
)
from ltoad.ir.lexer import Lexer
from ltoad.ir.types import DOUBLE, I1, I32, I64, PTR, ArrayType, FunctionType, StructType, VectorType
from ltoad.ir.values import ConstantFloat, ConstantInt, GlobalRef

llvm.initialize_native_target()
llvm.initialize_native_asmprinter()
llvm.initialize_native_asmparser()

LOOP = """\
define double @power_sum(double %x, i32 %n) {
entry:
  %empty = icmp sle i32 %n, 0
  br i1 %empty, label %exit, label %loop

loop:                                             ; preds = %loop, %entry
  %i = phi i32 [ 0, %entry ], [ %next, %loop ]
  %acc = phi double [ 0.000000e+00, %entry ], [ %sum, %loop ]
  %term = phi double [ 1.000000e+00, %entry ], [ %power, %loop ]
  %sum = fadd double %acc, %term
  %power = fmul double %term, %x
  %next = add nuw nsw i32 %i, 1
  %done = icmp eq i32 %next, %n
  br i1 %done, label %exit, label %loop, !llvm.loop !0

exit:                                             ; preds = %loop, %entry
  %result = phi double [ 0.000000e+00, %entry ], [ %sum, %loop ]
  ret double %result
}"""


def values_by_name(function: Function) -> dict:
    named = {arg.name: arg for arg in function.args}
    named.update((inst.name, inst) for inst in function.instructions() if inst.name)
    named.update((block.name, block) for block in function.blocks)
    return named


def jit(module_text: str):
    module = llvm.parse_assembly(module_text)
    module.verify()
    machine = llvm.Target.from_default_triple().create_target_machine()
    engine = llvm.create_mcjit_compiler(module, machine)
    engine.finalize_object()
    return engine


# ---- use lists -------------------------------------------------------------------------


def test_each_value_knows_its_users():
    function = parse_function(LOOP)
    v = values_by_name(function)
    assert [user.name for user in v["x"].users] == ["power"]
    assert [user.name for user in v["sum"].users] == ["acc", "result"]
    assert {use.index for use in v["term"].uses} == {0, 1}
    assert v["term"].users == [v["sum"], v["power"]]
    assert v["result"].users == [v["exit"].terminator]


def test_replace_all_uses_with_moves_every_use():
    function = parse_function(LOOP)
    v = values_by_name(function)
    v["term"].replace_all_uses_with(v["x"])
    assert not v["term"].has_uses()
    assert v["sum"].rhs is v["x"] and v["power"].lhs is v["x"]
    assert v["x"].users == [v["power"], v["sum"]]
    text = print_function(function)
    assert "%sum = fadd double %acc, %x" in text and "%power = fmul double %x, %x" in text


def test_set_operand_and_erase_keep_use_lists_exact():
    function = parse_function(LOOP)
    v = values_by_name(function)
    v["power"].set_operand(1, v["acc"])
    assert v["power"] not in v["x"].users
    assert v["power"] in v["acc"].users
    with pytest.raises(LtoadError, match="still has users"):
        v["result"].erase()
    v["result"].replace_all_uses_with(constant(DOUBLE, 2.5))
    v["result"].erase()
    assert v["result"] not in v["exit"].instructions
    assert v["sum"].users == [v["acc"]]


def test_blocks_know_predecessors_successors_and_phis():
    function = parse_function(LOOP)
    v = values_by_name(function)
    assert v["entry"].successors == [v["exit"], v["loop"]]
    assert v["loop"].predecessors == [v["entry"], v["loop"]]
    assert set(v["exit"].predecessors) == {v["entry"], v["loop"]}
    assert [phi.name for phi in v["loop"].phis] == ["i", "acc", "term"]
    phi = v["result"]
    phi.remove_incoming(0)
    assert phi.incoming == [(v["sum"], v["loop"])]
    assert [use.index for use in v["loop"].uses if use.user is phi] == [1]


def test_debug_record_uses_are_kept_apart():
    function = parse_function(
        "define i32 @f(i32 %a, i32 %b) {\n"
        "  %d = sub i32 %a, %b\n"
        "    #dbg_value(!DIArgList(i32 %a, i32 %b), !1, !DIExpression(DW_OP_LLVM_arg, 0), !2)\n"
        "    #dbg_value(i32 %d, !3, !DIExpression(), !2)\n"
        "  ret i32 %d, !dbg !2\n}"
    )
    a, b = function.args
    ret = function.entry.instructions[-1]
    assert [r.kind for r in ret.debug_records] == ["value", "value"]
    assert a.users == [function.entry.instructions[0]] and len(a.debug_uses) == 1
    replacement = ConstantInt(I32, 7)
    a.replace_all_uses_with(replacement)
    assert "#dbg_value(!DIArgList(i32 7, i32 %b)" in print_function(function)
    assert ret.get_metadata("dbg") == "!2"


# ---- accessors -------------------------------------------------------------------------

ACCESSORS = """\
define void @f(ptr %p, <4 x float> %v, i64 %i) {
  %slot = alloca [8 x i32], i64 %i, align 16
  %c = fcmp fast olt double 1.0, 2.0
  %s = shufflevector <4 x float> %v, <4 x float> poison, <2 x i32> <i32 3, i32 poison>
  %g = getelementptr inbounds nuw { i32, [4 x double] }, ptr %p, i64 %i, i32 1, i64 2
  %l = load atomic volatile double, ptr %g syncscope("singlethread") acquire, align 8, !tbaa !4
  %r = tail call fast double @llvm.fma.f64(double %l, double noundef %l, double 1.0) #3
  %e = extractvalue { i32, { double, ptr } } zeroinitializer, 1, 0
  ret void
}"""


def test_instructions_expose_their_fields():
    insts = {inst.name: inst for inst in parse_function(ACCESSORS).instructions()}
    slot: AllocaInst = insts["slot"]
    assert slot.allocated_type == ArrayType(8, I32) and slot.align == 16 and slot.count.name == "i"
    compare: CompareInst = insts["c"]
    assert (compare.opcode, compare.predicate, compare.flags, compare.type) == ("fcmp", "olt", ["fast"], I1)
    shuffle: ShuffleVectorInst = insts["s"]
    assert shuffle.mask == [3, -1] and shuffle.type == VectorType(2, shuffle.operand(0).type.element)
    gep: GetElementPtrInst = insts["g"]
    assert gep.source_element_type == StructType((I32, ArrayType(4, DOUBLE)))
    assert [index.value for index in gep.indices[1:]] == [1, 2] and gep.flags == ["inbounds", "nuw"]
    load: LoadInst = insts["l"]
    assert (load.ordering, load.syncscope, load.volatile, load.align) == ("acquire", '"singlethread"', True, 8)
    assert load.metadata == [("tbaa", "!4")]
    call: CallInst = insts["r"]
    assert call.called_name == "llvm.fma.f64" and call.tail == "tail" and call.flags == ["fast"]
    assert call.args[0] is load and call.arg_attrs == [[], ["noundef"], []] and call.fn_attrs == ["#3"]
    assert call.function_type == FunctionType(DOUBLE, (DOUBLE, DOUBLE, DOUBLE))
    assert insts["e"].indices == [1, 0] and insts["e"].type == DOUBLE
    assert print_instruction(compare) == "%c = fcmp fast olt double 1.0, 2.0"


def test_float_constants_keep_their_spelling_and_value():
    assert ConstantFloat(DOUBLE, "0x3FB999999999999A").value == 0.1
    assert ConstantFloat.from_value(DOUBLE, 0.1).text == "1.000000e-01"
    assert ConstantFloat.from_value(DOUBLE, 1 / 3).text == "0x3FD5555555555555"
    assert ConstantFloat.from_value(DOUBLE, 1.5).text == "1.500000e+00"
    function = parse_function("define x86_fp80 @f() {\n  ret x86_fp80 0xK4000C000000000000000\n}")
    assert function.entry.instructions[0].value.value == 3.0


# ---- builder ---------------------------------------------------------------------------


def build_power_sum() -> Module:
    """sum_{i<n} x^i with a loop, computed by calls to llvm.fmuladd.f64."""
    fmuladd = Function("llvm.fmuladd.f64", DOUBLE, [Argument(DOUBLE) for _ in range(3)])
    function = Function("power_sum", DOUBLE, [Argument(DOUBLE, "x"), Argument(I32, "n")], prefix=["dso_local"])
    x, n = function.args
    entry, loop, exit_ = function.add_block("entry"), function.add_block(), function.add_block("exit")
    b = Builder(entry)
    b.cond_br(b.icmp("sle", n, constant(I32, 0)), exit_, loop)
    b.position_at_end(loop)
    i = b.phi(I32, [(constant(I32, 0), entry)])
    acc = b.phi(DOUBLE, [(constant(DOUBLE, 0), entry)])
    term = b.phi(DOUBLE, [(constant(DOUBLE, 1), entry)])
    total = b.fadd(acc, term)
    power = b.call(fmuladd, [term, x, constant(DOUBLE, 0)], name="power")
    step = b.add(i, constant(I32, 1), flags=["nuw", "nsw"])
    for phi, value in ((i, step), (acc, total), (term, power)):
        phi.add_incoming(value, loop)
    b.cond_br(b.icmp("eq", step, n), exit_, loop)
    b.position_at_end(exit_)
    b.ret(b.phi(DOUBLE, [(constant(DOUBLE, 0), entry), (total, loop)]))
    module = Module()
    module.add_function(fmuladd)
    module.add_function(function)
    return module


def test_built_function_prints_parses_and_runs():
    module = build_power_sum()
    text = str(module)
    assert "declare double @llvm.fmuladd.f64(double, double, double)" in text
    assert "%2 = phi i32 [ 0, %entry ], [ %6, %1 ]" in text
    engine = jit(text)
    power_sum = ctypes.CFUNCTYPE(ctypes.c_double, ctypes.c_double, ctypes.c_int32)(
        engine.get_function_address("power_sum")
    )
    assert power_sum(0.5, 10) == pytest.approx(sum(0.5**k for k in range(10)))
    assert power_sum(3.0, 0) == 0.0


def test_built_function_reads_back_as_itself():
    module = build_power_sum()
    printed = print_function(module.parse_function("power_sum"))
    assert print_function(parse_function(printed)) == printed


def test_builder_inserts_before_an_instruction():
    function = parse_function(LOOP)
    v = values_by_name(function)
    b = Builder()
    b.position_before(v["sum"])
    halved = b.fmul(v["term"], constant(DOUBLE, 0.5), name="half")
    v["sum"].set_operand(1, halved)
    assert v["loop"].instructions.index(halved) == v["loop"].instructions.index(v["sum"]) - 1
    jit(print_function(function) + "\n!0 = distinct !{!0}\n")


# ---- errors ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "message", "line", "col"),
    [
        ("define i32 @f() {\n  %x = add i32 1,\n  ret i32 %x\n}", "expected value", 3, 3),
        ("define i32 @f() {\n  %x = add foo 1, 2\n  ret i32 %x\n}", "expected type", 2, 12),
        ("define i32 @f() {\n  %x = frobnicate i32 1\n  ret i32 %x\n}", "expected instruction opcode", 2, 8),
        ("define i32 @f() {\n  ret i32 %y\n}", "use of undefined value '%y'", 2, 11),
        ("define i32 @f() {\n  br label %nowhere\n}", "use of undefined value '%nowhere'", 2, 12),
        ("define i32 @f() {\n  %x = add i32 1, 2\n  %x = add i32 1, 2\n  ret i32 %x\n}", "redefinition of '%x'", 3, 3),
        ("define i32 @f(i32 %a) {\n  %x = fadd double %a, 1.0\n  ret i32 0\n}", "'%a' has type i32, not double", 2, 20),
        ("define i32 @f() {\n  %x = add i32 1, 2\n}", "expected instruction: block has no terminator", 3, 1),
        ("define i32 @f() {\n  ret i32 0", "unexpected end of input", 2, 12),
        ("define i32 @f() {\n  ret i32 0\n}\n}", "expected end of function", 4, 1),
        ("define i32 @f() {\n  %v = load i32, ptr @g, align\n  ret i32 %v\n}", "expected alignment", 3, 3),
        ("define i32 @f() {\n  ret i32 0 ^\n}", "expected instruction opcode", 2, 13),
        ("define i32 @f(i32 %a) {\n  %x = extractvalue i32 %a, 0\n  ret i32 0\n}", "i32 is not a struct type", 2, 8),
        ("declare i32 f()", "expected function name", 1, 13),
    ],
)
def test_malformed_function_raises_located_error(text, message, line, col):
    with pytest.raises(IRParseError) as caught:
        parse_function(text)
    assert (caught.value.message, caught.value.line, caught.value.col) == (message, line, col)
    assert str(caught.value) == f"ir: line {line}, col {col}: {message}"
    assert isinstance(caught.value, LtoadError)


def test_module_errors_are_located_in_the_module_text():
    text = 'source_filename = "m"\n\ndefine void @ok() {\n  ret void\n}\n\ndefine void @bad() {\n  ret i32\n}\n'
    module = parse_module(text)
    with pytest.raises(IRParseError, match=r"^ir: line 9, col 1: expected value$"):
        module.parse_function("bad")
    with pytest.raises(IRParseError, match=r"line 2, col 1: function @g has no closing '}'"):
        parse_module("\ndefine void @g() {\n  ret void\n")
    with pytest.raises(IRParseError, match=r"line 3, col 1: redefinition of @ok"):
        parse_module("define void @ok() {\n}\ndeclare void @ok()\n")


def test_every_truncation_raises_only_located_errors():
    tokens = Lexer(ACCESSORS).tokens[:-1]
    for cut in range(len(tokens)):
        text = " ".join(tokens[:cut])
        with pytest.raises(IRParseError):
            parse_function(text)


# ---- modules ---------------------------------------------------------------------------

MODULE = """\
source_filename = "m.c"
target datalayout = "e-m:e-i64:64-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%struct.node = type { ptr, %struct.pair }
%struct.pair = type <{ i8, double }>
%struct.hidden = type opaque

$comdat_fn = comdat any

@counter = dso_local global i32 0, align 4
@"quoted name" = internal constant [3 x i8] c"ab\\00"
@alias = alias i32, ptr @counter

; Function Attrs: noinline
define dso_local i32 @first(ptr %n) #0 {
  %p = getelementptr inbounds %struct.node, ptr %n, i64 0, i32 1
  %d = load double, ptr %p, align 8 ; a comment the printer drops
  %i = fptosi double %d to i32
  ret i32 %i
}

define internal void @second() #1 !dbg !3 {
entry:                                            ; no predecessors
  %v = load i32, ptr @counter, align 4
  %w = call i32 @first(ptr null)
  store i32 %w, ptr @counter, align 4
  ret void
}

declare i32 @external(ptr noundef, ...) #1

attributes #0 = { noinline nounwind "target-cpu"="x86-64" }
attributes #1 = { nounwind }

!llvm.module.flags = !{!0}
!0 = !{i32 1, !"wchar_size", i32 4}
!3 = distinct !{}
"""


def test_module_keeps_every_top_level_entry():
    module = parse_module(MODULE)
    assert (module.source_filename, module.triple) == ("m.c", "x86_64-pc-linux-gnu")
    assert module.datalayout.startswith("e-m:e")
    node = module.struct_types["struct.node"]
    assert node.body == StructType((PTR, module.named_type("struct.pair")))
    assert module.named_type("struct.pair").body.packed
    assert module.struct_types["struct.hidden"].body is None
    assert set(module.globals) == {"counter", "quoted name"} and set(module.aliases) == {"alias"}
    assert module.comdats == {"comdat_fn": "any"}
    assert module.attribute_groups[0] == 'noinline nounwind "target-cpu"="x86-64"'
    assert module.metadata["0"] == '!{i32 1, !"wchar_size", i32 4}'
    assert module.metadata["llvm.module.flags"] == "!{!0}"
    assert module.functions == ["first", "second"]
    external = module.parse_declaration("external")
    assert external.is_declaration and external.vararg and external.attribute_groups == [1]
    assert external.args[0].attrs == ["noundef"]


def test_parsing_is_lazy_and_untouched_functions_stay_text():
    module = parse_module(MODULE)
    assert str(module) == MODULE
    second = module.parse_function("second")
    assert module.is_parsed("second") and not module.is_parsed("first")
    assert second.metadata == [("dbg", "!3")] and second.attribute_groups == [1]
    load = second.entry.instructions[0]
    load.replace_all_uses_with(ConstantInt(I32, 0))
    store = second.entry.instructions[2]
    store.set_operand(0, ConstantInt(I32, 42))
    text = str(module)
    assert module.function_text("first") in text
    assert "; a comment the printer drops" in text
    assert "store i32 42, ptr @counter, align 4" in text
    assert "entry:                                            ; no predecessors" not in text
    llvm.parse_assembly(text).verify()


def test_global_refs_are_shared_by_the_functions_of_a_module():
    module = parse_module(MODULE)
    first = module.parse_function("first")
    second = module.parse_function("second")
    counter = module.global_ref("counter")
    assert isinstance(counter, GlobalRef)
    assert [user.opcode for user in counter.users] == ["load", "store"]
    assert [arg.name for arg in first.args] == ["n"]
    call = second.entry.instructions[1]
    assert call.called_name == "first" and call.callee is module.global_ref("first")


def test_named_types_from_the_module_give_extractvalue_types():
    module = parse_module(
        "%pair = type { i64, double }\n\n"
        "define double @f(%pair %p) {\n  %d = extractvalue %pair %p, 1\n  ret double %d\n}\n"
    )
    function = module.parse_function("f")
    assert function.entry.instructions[0].type == DOUBLE
    assert re.search(r"define double @f\(%pair %p\)", print_function(function))
    assert function.args[0].type.body.elements == (I64, DOUBLE)


def test_repeated_names_are_made_unique_when_printed():
    function = Function("twice", DOUBLE, [Argument(DOUBLE, "x")])
    b = Builder(function.add_block("entry"))
    first = b.fmul(function.args[0], function.args[0], name="x")
    b.ret(b.fadd(first, function.args[0], name="x"))
    text = print_function(function)
    assert "%x1 = fmul double %x, %x" in text and "%x2 = fadd double %x1, %x" in text
    assert print_function(parse_function(text)) == text


RARE_SYNTAX = r"""define i32 @"quoted \22name\22"(i32 %"a b", ptr %p) {
"entry block":
  %"sum\\" = add i32 %"a b", 1
  %q = getelementptr i8, ptr @"\01foo", i64 4
  call void @llvm.experimental.noalias.scope.decl(metadata !0)
  call void @llvm.fake(metadata i32 0, metadata ptr %q, metadata !{}, metadata !"str")
  br label %"next one"

"next one":
  %r = add i32 %"sum\\", %"a b"
  ret i32 %r
  uselistorder i32 %"a b", { 1, 0 }
}"""


def test_rare_syntax_prints_back_unchanged():
    function = parse_function(RARE_SYNTAX)
    assert function.name == 'quoted "name"'
    assert [block.name for block in function.blocks] == ["entry block", "next one"]
    assert function.entry.instructions[0].name == "sum\\"
    assert function.entry.instructions[1].pointer.name == "\x01foo"
    fake = function.entry.instructions[3]
    assert [type(arg).__name__ for arg in fake.args] == ["ValueAsMetadata"] * 2 + ["MetadataValue"] * 2
    assert fake.args[1].value is function.entry.instructions[1]
    assert function.uselistorder == ['uselistorder i32 %"a b", { 1, 0 }']
    assert print_function(function) == RARE_SYNTAX


def test_a_function_without_closing_brace_is_reported():
    text = "define void @a() {\n  ret void\n\ndefine void @b() {\n  ret void\n}\n"
    with pytest.raises(IRParseError, match=r"line 4, col 1: function definition inside another one"):
        parse_module(text)


def test_an_instruction_moves_with_its_operands():
    function = parse_function(LOOP)
    v = values_by_name(function)
    v["next"].remove_from_parent()
    v["loop"].insert(v["loop"].instructions.index(v["sum"]), v["next"])
    order = [inst.name for inst in v["loop"].instructions]
    assert order.index("next") == order.index("sum") - 1 and v["next"].parent is v["loop"]
    assert v["next"].lhs is v["i"] and v["next"] in v["i"].users
    jit(print_function(function) + "\n!0 = distinct !{!0}\n")


def test_signature_reads_only_the_header():
    module = ir.parse_module(
        "; Function Attrs: noinline\n"
        "define internal double @f(double noundef %0, ptr %p) #0 !dbg !4 {\n"
        "  ret double %0\n}\n"
        "declare { double, i32 } @g(ptr, ...)\n")
    assert str(module.signature("f").function_type) == "double (double, ptr)"
    assert str(module.signature("g").function_type) == "{ double, i32 } (ptr, ...)"
    assert not module.is_parsed("f")
