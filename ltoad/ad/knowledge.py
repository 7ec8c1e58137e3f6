"""Default knowledge about bodiless library functions (config/known_functions.yaml)."""

from __future__ import annotations

import fnmatch
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
    allocators = {
        name: Allocator(name, tuple(spec["size"]), spec["free"], spec.get("zeroed", False),
                        spec.get("reallocates"))
        for name, spec in data["allocators"].items()}
    return Knowledge(tuple(data["inactive"]), allocators, frozenset(data["deallocators"]))
