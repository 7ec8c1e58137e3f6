; Constructs that clang and rustc do not emit for x86-64 Linux but that LLVM 22 IR allows:
; va_arg, notail, nusw and vector GEPs, ptrtoaddr, scalable vectors, operand bundles,
; funclet pads, callbr, every float format, dso_local_equivalent and no_cfi.

%struct.pair = type { i32, double }
%opaque = type opaque
@g = global i32 0
@table = global [2 x ptr] zeroinitializer

declare void @use(...)
declare void @take(ptr)
declare i32 @__gxx_personality_v0(...)

define i32 @handwritten(ptr %ap, <4 x ptr> %ptrs, <vscale x 4 x i32> %sv, ptr %p, i64 %n) personality ptr @__gxx_personality_v0 {
entry:
  %v = va_arg ptr %ap, i32
  notail call void (...) @use(i32 %v)
  %q = getelementptr nusw i8, ptr %p, i64 %n
  %vg = getelementptr inbounds i32, <4 x ptr> %ptrs, <4 x i64> <i64 0, i64 1, i64 2, i64 3>
  %vg2 = getelementptr i32, ptr %p, <4 x i64> splat (i64 3)
  %addr = ptrtoaddr ptr %q to i64
  %sh = shufflevector <vscale x 4 x i32> %sv, <vscale x 4 x i32> poison, <vscale x 4 x i32> zeroinitializer
  %e = extractelement <vscale x 4 x i32> %sh, i64 0
  %f = fptrunc fast double 1.5 to float
  %t = trunc nuw nsw i64 %n to i32
  %ba = getelementptr [2 x ptr], ptr @table, i64 0, i64 1
  store ptr blockaddress(@handwritten, %other), ptr %ba, align 8
  %target = load ptr, ptr %ba, align 8
  indirectbr ptr %target, [label %other, label %exit]

other:
  %r = invoke i32 @callee(i32 %e) [ "deopt"(i32 %t), "cold"() ]
          to label %exit unwind label %lpad

lpad:
  %lp = landingpad { ptr, i32 }
          cleanup
          catch ptr @g
          filter [1 x ptr] [ptr @g]
  resume { ptr, i32 } %lp

exit:
  %phi = phi i32 [ %v, %entry ], [ %r, %other ]
  %tok = call token @llvm.experimental.convergence.anchor()
  %x = cmpxchg weak volatile ptr %p, i32 %phi, i32 0 syncscope("singlethread") acq_rel monotonic, align 4
  %old = atomicrmw volatile umax ptr %p, i32 3 syncscope("agent") seq_cst, align 4
  %inc = atomicrmw uinc_wrap ptr %p, i32 5 monotonic, align 4
  fence syncscope("singlethread") release
  %la = load atomic volatile i32, ptr %p syncscope("singlethread") acquire, align 4
  store atomic i32 %la, ptr %p unordered, align 4
  %agg = insertvalue %struct.pair poison, i32 %inc, 0
  %ev = extractvalue %struct.pair %agg, 0
  %dyn = alloca inalloca i8, i64 %n, align 16, addrspace(0)
  %s = select fast i1 true, float %f, float 2.0
  %fr = freeze i32 %ev
  %big = add i128 170141183460469231731687303715884105727, -1
  %hx = fadd half 0xH3C00, 0xH4000
  %bf = fadd bfloat 0xR3F80, 0xR4000
  %q128 = fadd fp128 0xL00000000000000004000000000000000, 0xL00000000000000003FFF000000000000
  %ppc = fadd ppc_fp128 0xM3FF00000000000000000000000000000, 0xM40000000000000000000000000000000
  %k = fadd x86_fp80 0xK3FFF8000000000000000, 0xK40008000000000000000
  %cast = ptrtoint ptr getelementptr inbounds nuw (i8, ptr @g, i64 4) to i64
  %dl = call ptr @take2(ptr dso_local_equivalent @take, ptr no_cfi @take)
  call void @llvm.assume(i1 true) [ "align"(ptr %p, i64 16), "nonnull"(ptr %p) ]
  %asm = call i32 asm sideeffect alignstack inteldialect "mov $0, 1", "=r,~{dirflag}"()
  ret i32 %fr
}

define void @funclets() personality ptr @__gxx_personality_v0 {
entry:
  invoke void @take(ptr null)
          to label %done unwind label %dispatch

dispatch:
  %cs = catchswitch within none [label %handler] unwind to caller

handler:
  %cp = catchpad within %cs [ptr null, i32 64, ptr null]
  call void @take(ptr null) [ "funclet"(token %cp) ]
  catchret from %cp to label %done

done:
  ret void

cleanup:
  %cl = cleanuppad within none []
  cleanupret from %cl unwind to caller
}

define i32 @asm_goto(i32 %x) {
  callbr void asm "jmp ${1:l}", "r,!i"(i32 %x)
          to label %fall [label %indirect]

fall:
  ret i32 0

indirect:
  ret i32 1
}

declare i32 @callee(i32)
declare ptr @take2(ptr, ptr)
declare void @llvm.assume(i1)
declare token @llvm.experimental.convergence.anchor()
