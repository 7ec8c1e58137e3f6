"""Functions derivative rules need that no library provides, defined in IR; and models of
bodiless runtime functions that are differentiated through their math.

digamma(x) = d/dx ln Gamma(x), for the lgamma and tgamma rules: shift x up to >= 6 with
psi(x) = psi(x + 1) - 1/x, then the asymptotic series
psi(x) ~ ln x - 1/(2x) - 1/(12x^2) + 1/(120x^4) - 1/(252x^6) + 1/(240x^8) - 1/(132x^10).
"""

from __future__ import annotations

DIGAMMA_F64 = """define internal double @"__ltoad_digamma.f64"(double %x) {
entry:
  br label %shift

shift:
  %v = phi double [ %x, %entry ], [ %next, %step ]
  %sum = phi double [ 0.000000e+00, %entry ], [ %less, %step ]
  %small = fcmp olt double %v, 6.000000e+00
  br i1 %small, label %step, label %series

step:
  %inverse = fdiv double 1.000000e+00, %v
  %less = fsub double %sum, %inverse
  %next = fadd double %v, 1.000000e+00
  br label %shift

series:
  %square = fmul double %v, %v
  %t = fdiv double 1.000000e+00, %square
  %c5 = fmul double %t, 0x3F7F07C1F07C1F08
  %c4 = fsub double 0x3F71111111111111, %c5
  %m4 = fmul double %t, %c4
  %c3 = fsub double 0x3F70410410410410, %m4
  %m3 = fmul double %t, %c3
  %c2 = fsub double 0x3F81111111111111, %m3
  %m2 = fmul double %t, %c2
  %c1 = fsub double 0x3FB5555555555555, %m2
  %tail = fmul double %t, %c1
  %log = call double @llvm.log.f64(double %v)
  %half = fdiv double 5.000000e-01, %v
  %a = fsub double %log, %half
  %b = fsub double %a, %tail
  %result = fadd double %sum, %b
  ret double %result
}"""

DIGAMMA_F32 = """define internal float @"__ltoad_digamma.f32"(float %x) {
entry:
  %wide = fpext float %x to double
  %psi = call double @"__ltoad_digamma.f64"(double %wide)
  %narrow = fptrunc double %psi to float
  ret float %narrow
}"""

DEFINITIONS = {
    "__ltoad_digamma.f64": (DIGAMMA_F64, ("llvm.log.f64",)),
    "__ltoad_digamma.f32": (DIGAMMA_F32, ("__ltoad_digamma.f64",)),
}
DECLARATIONS = {"llvm.log.f64": "declare double @llvm.log.f64(double)"}


def definitions_for(names) -> tuple[list[str], dict[str, str]]:
    """IR definitions of the needed special functions, and declarations those need."""
    texts, declarations, pending, seen = [], {}, list(names), set()
    while pending:
        name = pending.pop()
        if name in seen or name not in DEFINITIONS:
            if name in DECLARATIONS:
                declarations[name] = DECLARATIONS[name]
            continue
        seen.add(name)
        text, needs = DEFINITIONS[name]
        texts.append(text)
        pending.extend(needs)
    return texts, declarations


# Models: bodies for runtime functions the compiler calls but whose code ltoad never sees (C99
# complex arithmetic, a few complex libm functions). A call to one in an active function is
# differentiated through the model; the model also computes the primal result (it omits the
# libraries' NaN/infinity recovery).
MODEL_PREFIX = "__ltoad_model."
MODELS = {
    # (a + bi)(c + di) = (ac - bd) + (ad + bc)i
    "__muldc3": """define internal { double, double } @"__ltoad_model.__muldc3"(double %a, double %b, double %c, double %d) {
entry:
  %ac = fmul double %a, %c
  %bd = fmul double %b, %d
  %ad = fmul double %a, %d
  %bc = fmul double %b, %c
  %re = fsub double %ac, %bd
  %im = fadd double %ad, %bc
  %z0 = insertvalue { double, double } poison, double %re, 0
  %z = insertvalue { double, double } %z0, double %im, 1
  ret { double, double } %z
}""",
    # (a + bi)/(c + di) = ((ac + bd) + (bc - ad)i) / (c^2 + d^2)
    "__divdc3": """define internal { double, double } @"__ltoad_model.__divdc3"(double %a, double %b, double %c, double %d) {
entry:
  %cc = fmul double %c, %c
  %dd = fmul double %d, %d
  %den = fadd double %cc, %dd
  %ac = fmul double %a, %c
  %bd = fmul double %b, %d
  %bc = fmul double %b, %c
  %ad = fmul double %a, %d
  %ren = fadd double %ac, %bd
  %imn = fsub double %bc, %ad
  %re = fdiv double %ren, %den
  %im = fdiv double %imn, %den
  %z0 = insertvalue { double, double } poison, double %re, 0
  %z = insertvalue { double, double } %z0, double %im, 1
  ret { double, double } %z
}""",
    # exp(a + bi) = e^a (cos b + i sin b)
    "cexp": """define internal { double, double } @"__ltoad_model.cexp"(double %a, double %b) {
entry:
  %e = call double @llvm.exp.f64(double %a)
  %cos = call double @llvm.cos.f64(double %b)
  %sin = call double @llvm.sin.f64(double %b)
  %re = fmul double %e, %cos
  %im = fmul double %e, %sin
  %z0 = insertvalue { double, double } poison, double %re, 0
  %z = insertvalue { double, double } %z0, double %im, 1
  ret { double, double } %z
}""",
    # |a + bi| = hypot(a, b)
    "cabs": """define internal double @"__ltoad_model.cabs"(double %a, double %b) {
entry:
  %r = call double @hypot(double %a, double %b)
  ret double %r
}""",
}
MODEL_DECLARATIONS = {
    "llvm.exp.f64": "declare double @llvm.exp.f64(double)",
    "llvm.cos.f64": "declare double @llvm.cos.f64(double)",
    "llvm.sin.f64": "declare double @llvm.sin.f64(double)",
    "hypot": "declare double @hypot(double, double)",
}
