"""Names people write for mangled symbols: C++ (Itanium) and Rust (legacy and v0) manglings.

One `llvm-cxxfilt-22` run demangles a whole batch. Rust's legacy mangling ends in a hash
(`numkit::stats::mean::h9c14f46f0521eb57`), which is dropped: users name the path.
"""

from __future__ import annotations

import re
import subprocess

from . import toolchain

_RUST_HASH = re.compile(r"::h[0-9a-f]{16}$")
_MANGLED = ("_Z", "_R", "__Z")


def demangle(names) -> dict[str, str]:
    """Each name mapped to its display form (unmangled names map to themselves)."""
    names = list(dict.fromkeys(names))
    mangled = [n for n in names if n.startswith(_MANGLED)]
    shown = dict(zip(names, names))
    if mangled:
        output = subprocess.run([toolchain.find("llvm-cxxfilt")], input="\n".join(mangled) + "\n",
                                capture_output=True, text=True, check=True).stdout.splitlines()
        for name, display in zip(mangled, output):
            shown[name] = _RUST_HASH.sub("", display)
    return shown


_SPACES = re.compile(r"\s*([(),*&<>\[\]])\s*")


def normalize(spelled: str) -> str:
    """A demangled name with the spaces around punctuation removed (`f(double const *, int)`
    and `f(double const*,int)` compare equal)."""
    return _SPACES.sub(r"\1", spelled.strip())


def without_parameters(display: str) -> str:
    """`ns::f(double const*, int) const` -> `ns::f` (the name before the parameter list)."""
    depth = 0
    for index, char in enumerate(display):
        if char == "<":
            depth += 1
        elif char == ">":
            depth -= 1
        elif char == "(" and depth == 0 and index > 0 and not display[:index].endswith("operator"):
            return display[:index]
    return display
