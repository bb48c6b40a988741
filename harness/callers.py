"""Every gate and every probe must be invoked by something: CI, the Makefile or a gate.

The call graph is read from the sources that run in CI: ``.ci/run``, the
Makefile recipes of the targets it (transitively) reaches, and each gate's
declared ``INVOKES``. A gate or probe nothing calls is an orphan, and fails.
"""

from __future__ import annotations

import importlib
import re
from dataclasses import dataclass
from pathlib import Path

from harness.probes import PROBES

GATES: tuple[str, ...] = ("observe", "promote")
CI_ENTRY = ".ci/run"
_MAKE_CALL = re.compile(r"\bmake\s+([a-z][a-z0-9_-]*)")
_BEACON_CALL = re.compile(r"\bbeacon\s+(gate\s+[a-z-]+|probe\s+(?:--all|[a-z0-9-]+))")
_RULE = re.compile(r"^([A-Za-z0-9_.-]+)\s*:(?!=)([^\n]*)$", re.MULTILINE)


@dataclass(frozen=True, slots=True)
class CallerReport:
    callers: dict[str, tuple[str, ...]]  # "gate observe" / "probe boot-smoke" → who calls it

    @property
    def orphans(self) -> tuple[str, ...]:
        return tuple(sorted(name for name, who in self.callers.items() if not who))


def _make_rules(makefile: str) -> dict[str, tuple[list[str], str]]:
    """target → (prerequisites, recipe text)."""
    rules: dict[str, tuple[list[str], str]] = {}
    lines = makefile.splitlines()
    for index, line in enumerate(lines):
        match = _RULE.match(line)
        if not match or line.startswith("\t"):
            continue
        recipe = []
        for follow in lines[index + 1 :]:
            if not follow.startswith("\t"):
                break
            recipe.append(follow)
        rules[match.group(1)] = (match.group(2).split(), "\n".join(recipe))
    return rules


def _reached_targets(root: Path) -> dict[str, str]:
    """Makefile targets CI reaches → their recipes."""
    ci = (root / CI_ENTRY).read_text(encoding="utf-8") if (root / CI_ENTRY).is_file() else ""
    makefile = root / "Makefile"
    rules = _make_rules(makefile.read_text(encoding="utf-8")) if makefile.is_file() else {}
    todo = _MAKE_CALL.findall(ci)
    reached: dict[str, str] = {}
    while todo:
        target = todo.pop()
        if target in reached or target not in rules:
            continue
        prerequisites, recipe = rules[target]
        reached[target] = recipe
        todo += [p for p in prerequisites if p in rules] + _MAKE_CALL.findall(recipe)
    return reached


def _invocations(text: str) -> set[str]:
    found = set()
    for call in _BEACON_CALL.findall(text):
        found.add(" ".join(call.split()))
    return found


def gate_invokes(gate: str) -> tuple[str, ...]:
    module = importlib.import_module(f"gates.{gate}")
    invokes = getattr(module, "INVOKES", ())
    return tuple(str(i) for i in invokes)


def find_callers(root: Path) -> CallerReport:
    sources: dict[str, set[str]] = {}
    ci = root / CI_ENTRY
    if ci.is_file():
        sources[CI_ENTRY] = _invocations(ci.read_text(encoding="utf-8"))
    for target, recipe in _reached_targets(root).items():
        sources[f"Makefile:{target}"] = _invocations(recipe)
    reached_gates = {c for calls in sources.values() for c in calls if c.startswith("gate ")}
    for gate in GATES:
        # a gate's own calls count only when the gate itself is called
        if f"gate {gate}" in reached_gates:
            sources[f"gate {gate}"] = set(gate_invokes(gate))
    wanted = [f"gate {g}" for g in GATES] + [f"probe {p}" for p in PROBES]
    callers: dict[str, tuple[str, ...]] = {}
    for name in wanted:
        who = sorted(
            src
            for src, calls in sources.items()
            if name in calls or (name.startswith("probe ") and "probe --all" in calls)
        )
        callers[name] = tuple(w for w in who if w != name)
    return CallerReport(callers)
