"""What the program itself says about differentiation, besides its requests.

- `__attribute__((enzyme_inactive))` on functions and globals (ltoad-clang compiles with
  `-Denzyme_inactive=annotate("enzyme_inactive")`, so the attribute survives as an entry of
  `@llvm.global.annotations`).
- Custom derivatives registered Enzyme's way:
  `void *__enzyme_register_gradient_f[3] = { (void *)f, (void *)f_aug, (void *)f_rev };`
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..ir import Module

REGISTER_PREFIX = "__enzyme_register_gradient_"
INACTIVE_TEXT = 'c"enzyme_inactive\\00"'
_SYMBOL = r'@("[^"]*"|[-\w$.]+)'
_ANNOTATION = re.compile(rf"\{{ ptr {_SYMBOL}, ptr {_SYMBOL},")
_REGISTRATION = re.compile(rf"\[ptr {_SYMBOL}, ptr {_SYMBOL}, ptr {_SYMBOL}\]")


@dataclass(frozen=True)
class CustomGradient:
    function: str
    augmented: str       # returns the primal result (same arguments as the derivative call)
    reverse: str         # returns the adjoints of the active scalar arguments


@dataclass
class Annotations:
    inactive: set[str] = field(default_factory=set)      # functions and globals
    custom: dict[str, CustomGradient] = field(default_factory=dict)

    def merged(self, other: "Annotations") -> "Annotations":
        return Annotations(self.inactive | other.inactive, {**self.custom, **other.custom})


def _name(token: str) -> str:
    return token.strip('"')


def read_annotations(module: Module) -> Annotations:
    found = Annotations()
    annotations = module.globals.get("llvm.global.annotations", "")
    for target, text in _ANNOTATION.findall(annotations):
        if INACTIVE_TEXT in module.globals.get(_name(text), ""):
            found.inactive.add(_name(target))
    for name, line in module.globals.items():
        if name.startswith(REGISTER_PREFIX):
            match = _REGISTRATION.search(line)
            if match:
                function, augmented, reverse = map(_name, match.groups())
                found.custom[function] = CustomGradient(function, augmented, reverse)
    return found
