"""The fan-in audit: how many code items behind a gate could reach "done" unexecuted.

For each gate, the items directly behind it are the modules its verdict
covers: ``observe`` — every module under a path the registry guards;
``promote`` — every module it would promote. An item has its own execution
evidence when a test file imports it directly and that file's tests ran and
passed in the JUnit record. It warns over a threshold and louder over a second
one, and never fails a gate by itself: a blocking audit is an incentive to raise
its threshold (the seed's words), so the figure goes into the gate's evidence for
a person to read. The worst offenders are the unevidenced items most others
depend on.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import grimp

from boundaries import load_registry
from harness.refs import imported_modules

PACKAGES: tuple[str, ...] = ("beacon", "stub_server")
# Measured at introduction: observe 17 of 50, promote 25 of 85. Both only warn.
WARN_OVER = 20
HIGH_OVER = 40


@dataclass(frozen=True, slots=True)
class GateFanIn:
    gate: str
    behind: tuple[str, ...]
    unevidenced: tuple[str, ...]
    worst: tuple[tuple[str, int], ...]  # (module, how many modules import it)

    @property
    def level(self) -> str:
        return level_for(len(self.unevidenced))

    def finding(self) -> dict[str, object]:
        """This gate's fan-in as a record entry (the sweep record, gate evidence)."""
        return {
            "gate": self.gate,
            "level": self.level,
            "behind": len(self.behind),
            "unevidenced_count": len(self.unevidenced),
            "unevidenced": list(self.unevidenced),
            "worst": [list(w) for w in self.worst],
            "warn_over": WARN_OVER,
            "high_over": HIGH_OVER,
        }


def level_for(unevidenced: int) -> str:
    """``high`` over the second threshold, ``warn`` over the first, else ``ok``: each
    a warning, never a failure."""
    return "high" if unevidenced > HIGH_OVER else "warn" if unevidenced > WARN_OVER else "ok"


def _module_of(rel: str) -> str | None:
    if not rel.endswith(".py"):
        return None
    dotted = rel.removesuffix(".py").replace("/", ".")
    return dotted.removesuffix(".__init__")


def modules_under(root: Path, paths: Iterable[str]) -> set[str]:
    found: set[str] = set()
    for rel in paths:
        target = root / rel
        files = [target] if target.is_file() else sorted(target.rglob("*.py"))
        for file in files:
            module = _module_of(file.relative_to(root).as_posix())
            if module and module.split(".")[0] in PACKAGES:
                found.add(module)
    return found


def _defining_module(name: str) -> str | None:
    """``pkg.symbol`` → the module that defines ``symbol`` (re-exports resolved)."""
    package, _, symbol = name.rpartition(".")
    try:
        obj = getattr(importlib.import_module(package), symbol, None)
    except ImportError:
        return None
    module = getattr(obj, "__module__", None)
    return module if isinstance(module, str) else None


def tested_modules(root: Path, passed_files: set[str] | None) -> set[str]:
    """Modules some test file imports directly (and, given JUnit, whose tests passed)."""
    found: set[str] = set()
    for test_file in sorted((root / "suites").rglob("test_*.py")):
        rel = test_file.relative_to(root).as_posix()
        if passed_files is not None and rel not in passed_files:
            continue
        found |= imported_modules(test_file)
    resolved = {_defining_module(n) for n in found if n.split(".")[0] in PACKAGES and "." in n}
    return found | {m for m in resolved if m is not None}


def audit(root: Path, passed_files: set[str] | None = None) -> list[GateFanIn]:
    graph = grimp.build_graph(*PACKAGES, cache_dir=None)
    every = {m for m in graph.modules if m.split(".")[0] in PACKAGES}
    registry = load_registry(root)
    behind = {
        "observe": modules_under(root, {p for b in registry.boundaries for p in b.paths}) & every,
        "promote": every,
    }
    tested = tested_modules(root, passed_files)
    report = []
    for gate, items in behind.items():
        lacking = sorted(m for m in items if m not in tested and not _is_package_marker(root, m))
        fan = {m: len(graph.find_modules_that_directly_import(m)) for m in lacking}
        worst = tuple(sorted(fan.items(), key=lambda kv: (-kv[1], kv[0]))[:10])
        report.append(GateFanIn(gate, tuple(sorted(items)), tuple(lacking), worst))
    return report


def _is_package_marker(root: Path, module: str) -> bool:
    """An ``__init__`` that only re-exports is covered by the modules it names."""
    init = root / Path(*module.split(".")) / "__init__.py"
    return init.is_file()
