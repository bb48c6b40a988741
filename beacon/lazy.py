"""A package's public names, loaded from its modules when one is first read (PEP 562).

``beacon.auth`` and ``beacon.store`` re-export their modules' names, and a package's
``__init__`` runs before any of its modules: ``import beacon.store.backends`` loaded
the cipher and ``beacon.auth.families`` the JWT library and the HTTP client, so every
``beacon`` command paid ~0.4 s of imports at start (``beacon --version`` too) for
names it never read. A package whose ``__init__`` ends ``__getattr__, __dir__ =
exported(...)`` loads its modules on the first read of one of its names; a module of
it imported by its full name loads that module alone. (Its ``__init__`` imports the
same names under ``TYPE_CHECKING`` and binds the hooks only outside it, so mypy sees
each name's type and still flags a name the package does not export.)
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Sequence
from types import ModuleType


def exported(
    package: str, names: Sequence[str], modules: Sequence[str]
) -> tuple[Callable[[str], object], Callable[[], list[str]]]:
    """The package's ``__getattr__`` and ``__dir__``: each of ``names`` from the first of
    ``modules`` (relative to ``package``) that defines it, bound on the package once
    read; ``dir()`` lists ``names`` and the modules loaded so far, whether read or not."""
    public = frozenset(names)

    def __getattr__(name: str) -> object:
        if name not in public:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        for module in modules:
            loaded = importlib.import_module(f"{package}.{module}")
            if hasattr(loaded, name):
                value = getattr(loaded, name)
                setattr(sys.modules[package], name, value)
                return value
        raise AttributeError(f"module {package!r} lists {name!r} but none of its modules has it")

    def __dir__() -> list[str]:
        held = vars(sys.modules[package])
        return sorted(public | {n for n, v in held.items() if isinstance(v, ModuleType)})

    return __getattr__, __dir__
