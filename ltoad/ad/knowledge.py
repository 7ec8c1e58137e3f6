"""Default knowledge about bodiless library functions (config/known_functions.yaml)."""

from __future__ import annotations

import fnmatch
import re
from dataclasses import dataclass, replace
from functools import cache
from importlib import resources

import yaml


@dataclass(frozen=True)
class Allocator:
    name: str
    size_args: tuple[int, ...]     # the byte count is the product of these arguments
    free: str
    zeroed: bool = False
    reallocates: int | None = None  # argument index of the old pointer (realloc)
    shadow: str | None = None       # a libc allocator for the shadow (None: the same one)


# A Rust v0-mangled item of the `__rustc` crate: `_RNvCs<hash>_7___rustc12___rust_alloc`.
_RUSTC_ITEM = re.compile(r"^_RNvCs\w*?_7___rustc\d+_(\w+)$")


def canonical(name: str) -> str:
    """The plain name of a Rust allocator shim (`__rust_alloc`), any other name unchanged."""
    match = _RUSTC_ITEM.match(name)
    return match.group(1) if match else name


class _ByCanonicalName(dict):
    """A table looked up by canonical(name)."""

    def __contains__(self, name) -> bool:
        return super().__contains__(canonical(name))

    def __getitem__(self, name):
        return super().__getitem__(canonical(name))


class _CanonicalNames(frozenset):
    def __contains__(self, name) -> bool:
        return super().__contains__(canonical(name))


@dataclass(frozen=True)
class Knowledge:
    inactive_patterns: tuple[str, ...]
    allocators: dict[str, Allocator]
    deallocators: frozenset[str]

    def is_inactive(self, name: str) -> bool:
        return any(fnmatch.fnmatchcase(name, p) for p in self.inactive_patterns)

    def with_inactive(self, names) -> "Knowledge":
        """This knowledge plus more inactive names (globs)."""
        return replace(self, inactive_patterns=self.inactive_patterns + tuple(sorted(names)))


@cache
def default() -> Knowledge:
    text = resources.files("ltoad.config").joinpath("known_functions.yaml").read_text()
    data = yaml.safe_load(text)
    allocators = _ByCanonicalName(
        (name, Allocator(name, tuple(spec["size"]), spec["free"], spec.get("zeroed", False),
                         spec.get("reallocates"), spec.get("shadow")))
        for name, spec in data["allocators"].items())
    return Knowledge(tuple(data["inactive"]), allocators,
                     _CanonicalNames(data["deallocators"]))
