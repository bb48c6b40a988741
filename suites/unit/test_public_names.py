"""What ``beacon.adjudication`` offers a library user, and the one exception tree.

``__all__`` is exactly what the package binds (as beacon.auth, beacon.policy and
beacon.store hold theirs: suites/unit/test_auth_tokens.py, test_policy_notices.py,
test_store_crypto.py); every function it exports is named in the README's "The
verdicts on their own" and every adjudication name there is exported; the types an
exported name takes or returns are exported beside it. Each package that raises
raises only under its one root (ARCHITECTURE.md, "Exceptions").
"""

from __future__ import annotations

import enum
import importlib
import inspect
import pkgutil
import re
import typing
from pathlib import Path
from types import ModuleType

import pytest

import beacon.adjudication

ROOT = Path(__file__).resolve().parents[2]
EXPORTED = frozenset(beacon.adjudication.__all__)
# The names exported from a lower layer: the wire's page summary, the count's grade and
# the guard's audit codes (on the wire so the store and verify name them too).
FROM_WIRE = frozenset({"PageSummary", "Grade", "DropRule", "AuditKind"})


def _modules(package: ModuleType) -> list[ModuleType]:
    """Every module under ``package``, its sub-packages' too (the narration guard's)."""
    return [
        importlib.import_module(info.name)
        for info in pkgutil.walk_packages(package.__path__, f"{package.__name__}.")
    ]


def _readme_section() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    start = text.index("## The verdicts on their own")
    return text[start : text.index("\n## ", start + 1)]


def _readme_names() -> set[str]:
    """Identifiers the section imports in its examples or quotes in its prose."""
    section = _readme_section()
    names = {
        name.strip()
        for line in re.findall(r"from beacon\.adjudication import ([^\n]+)", section)
        for name in line.split(",")
    }
    prose = re.sub(r"```.*?```", "", section, flags=re.DOTALL)
    for quoted in re.findall(r"`([^`\n]+)`", prose):
        names |= set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", quoted))
    return names


def _defined_in_adjudication() -> set[str]:
    return {
        name
        for module in _modules(beacon.adjudication)
        for name, value in vars(module).items()
        if not name.startswith("_") and getattr(value, "__module__", None) == module.__name__
    }


def test_all_is_exactly_what_the_package_binds() -> None:
    bound = {
        name
        for name in dir(beacon.adjudication)
        if not name.startswith("_")
        and not isinstance(getattr(beacon.adjudication, name), ModuleType)
    }
    assert set(beacon.adjudication.__all__) == bound
    assert len(beacon.adjudication.__all__) == len(EXPORTED)  # no name twice


def test_every_exported_name_is_the_adjudications_own() -> None:
    modules = _modules(beacon.adjudication)
    for name in EXPORTED - FROM_WIRE:
        value = getattr(beacon.adjudication, name)
        if inspect.isclass(value) or inspect.isfunction(value):
            assert value.__module__.startswith("beacon.adjudication."), name
        else:  # a constant, a table or a type alias: one of the modules binds it
            assert any(vars(m).get(name) is value for m in modules), name


def test_the_readme_names_every_exported_function_and_exports_every_name_it_shows() -> None:
    named = _readme_names()
    functions = {n for n in EXPORTED if inspect.isfunction(getattr(beacon.adjudication, n))}
    assert functions - named == set()
    shown = named & (_defined_in_adjudication() | FROM_WIRE)
    # Names the section shows from adjudication's modules are importable from the package.
    assert shown - EXPORTED == set()


def _classes(hint: object) -> set[type]:
    found = {hint} if isinstance(hint, type) else set()
    for arg in typing.get_args(hint):
        found |= _classes(arg)
    return found


def _signatures(value: object) -> list[object]:
    if inspect.isfunction(value):
        return [value]
    if inspect.isclass(value) and not issubclass(value, (enum.Enum, BaseException)):
        methods = [m for n, m in vars(value).items() if inspect.isfunction(m)]
        return [value, *(m for m in methods if m.__name__ == "__init__" or m.__name__[0] != "_")]
    return []


def test_the_types_an_exported_name_takes_or_returns_are_exported() -> None:
    missing: dict[str, set[str]] = {}
    for name in sorted(EXPORTED):
        for target in _signatures(getattr(beacon.adjudication, name)):
            for hint in typing.get_type_hints(target).values():
                for cls in _classes(hint):
                    ours = cls.__module__.startswith(("beacon.adjudication", "beacon.wire"))
                    if ours and cls.__name__ not in EXPORTED:
                        missing.setdefault(cls.__name__, set()).add(name)
    assert missing == {}


ROOTS = {
    "beacon.adjudication": "AdjudicationError",
    "beacon.auth": "AuthError",
    "beacon.llm": "LlmError",
    "beacon.loop": "LoopError",
    "beacon.store": "StoreError",
    "beacon.upstream": "UpstreamError",
}


@pytest.mark.parametrize(("package", "root"), sorted(ROOTS.items()))
def test_a_package_raises_only_under_its_one_root(package: str, root: str) -> None:
    errors = importlib.import_module(f"{package}.errors")
    base = getattr(errors, root)
    assert base.__bases__ == (Exception,)
    defined = [
        value
        for module in _modules(importlib.import_module(package))
        for value in vars(module).values()
        if inspect.isclass(value)
        and issubclass(value, BaseException)
        and value.__module__ == module.__name__
    ]
    assert base in defined
    assert [e.__name__ for e in defined if not issubclass(e, base)] == []


def test_a_refused_frame_ends_the_turn_as_internal_under_the_loops_root() -> None:
    from beacon.loop.errors import LoopError
    from beacon.loop.frames import FrameMaker, FrameOrderError

    with pytest.raises(LoopError) as refused:
        FrameMaker("t_test").make("delta", text="x")
    assert isinstance(refused.value, FrameOrderError)
    assert refused.value.code == "internal" and refused.value.row_id == "delta-before-start"
    assert str(refused.value).endswith("delta-before-start")


def _row(*fields: object) -> tuple[object, ...]:
    return fields


def test_a_table_with_a_repeated_row_id_is_the_adjudications_one_error() -> None:
    from beacon.adjudication import AdjudicationError
    from beacon.adjudication.tables import build_rows

    with pytest.raises(AdjudicationError, match="twice"):
        build_rows(["a", "b"], ["x"], {}, {("a", "x"): "twice", ("b", "x"): "twice"}, _row)
