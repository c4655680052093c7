"""C++ names for SSA values: lowerCamelCase from the IR's name hints, unique per scope.

A `Scope` is one C++ scope (the class, a method, a `{ }` block): it maps values to the names
declared in it and refuses a name that an enclosing scope, a C++ keyword or an identifier the
printer itself writes already owns, by adding a number (`xLocal`, `xLocal1`, ...).
"""

from __future__ import annotations

from xdsl.ir import SSAValue

from hswc.cpp_identifiers import CPP_KEYWORDS, RESERVED, lower_camel

TILING_PARAM = "tilingData"
"""The tiling struct: the entry's local, the kernel's Init parameter."""

class Scope:
    """The names one C++ scope declares, and its enclosing scope."""

    def __init__(self, parent: Scope | None = None, reserved: tuple[str, ...] = ()):
        self.parent = parent
        self.names: dict[SSAValue, str] = {}
        self.taken: set[str] = set(reserved)

    def child(self) -> Scope:
        return Scope(self)

    def lookup(self, value: SSAValue) -> str | None:
        scope: Scope | None = self
        while scope is not None:
            if value in scope.names:
                return scope.names[value]
            scope = scope.parent
        return None

    def is_taken(self, name: str) -> bool:
        if name in CPP_KEYWORDS or name in RESERVED:
            return True
        scope: Scope | None = self
        while scope is not None:
            if name in scope.taken:
                return True
            scope = scope.parent
        return False

    def fresh(self, base: str) -> str:
        """A name not yet taken here or in an enclosing scope, from `base`, and take it."""
        name, n = base, 1
        while self.is_taken(name):
            name, n = f"{base}{n}", n + 1
        self.taken.add(name)
        return name

    def declare(self, value: SSAValue, fallback: str) -> str:
        """Name `value` in this scope from its hint, or from `fallback` when it has none."""
        name = self.fresh(lower_camel(value.name_hint or "") or fallback)
        self.names[value] = name
        return name
