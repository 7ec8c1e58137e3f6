"""Module-wide names a function refers to: global symbols (`@g`) and named struct types (`%T`).

One `GlobalRef` per symbol name, so its use list collects the uses from every parsed function.
A `Module` extends this with the struct bodies of its type definitions.
"""

from ltoad.ir.types import PTR, NamedStructType, Type
from ltoad.ir.values import GlobalRef


class Symbols:
    def __init__(self):
        self._globals: dict[str, GlobalRef] = {}
        self._named_types: dict[str, NamedStructType] = {}

    def global_ref(self, name: str, type: Type = PTR) -> GlobalRef:
        ref = self._globals.get(name)
        if ref is None:
            ref = self._globals[name] = GlobalRef(name, type)
        return ref

    def named_type(self, name: str) -> NamedStructType:
        named = self._named_types.get(name)
        if named is None:
            named = self._named_types[name] = NamedStructType(name)
            self.define_named_type(named)
        return named

    def define_named_type(self, named: NamedStructType) -> None:
        """Fill in the body of a newly met named type; here nothing is known about it."""
