"""Functions derivative rules need that no library provides, defined in IR.

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
