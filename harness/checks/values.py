"""Checks of values and symbols in the code, found by import: a pinned constant, two
owners' copies of one value, a public name's signature and fields, a transition table's
rows, a generated file against its generator, a declared dependency's pin."""

from __future__ import annotations

import dataclasses
import inspect
import re
import tomllib
from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel

from harness.checks.base import CheckContext, defined_where_named
from harness.refs import CheckFailed, normalize, require, resolve


def python_constant(params: Mapping[str, Any], ctx: CheckContext) -> None:
    defined_where_named(require(params, "ref"), ctx, "check.ref")
    actual = normalize(resolve(require(params, "ref")))
    expected = normalize(require(params, "equals"))
    if actual != expected:
        raise CheckFailed("check.equals", f"{params['ref']} is {actual!r}, pinned {expected!r}")


def same_value(params: Mapping[str, Any], ctx: CheckContext) -> None:
    """Two owners' copies of one value agree (``casefold``: as HTTP header names do)."""
    refs = require(params, "refs")
    for index, ref in enumerate(refs):
        defined_where_named(ref, ctx, f"check.refs[{index}]")
    values = [normalize(resolve(ref, "check.refs")) for ref in refs]
    if params.get("casefold"):
        values = [v.casefold() if isinstance(v, str) else v for v in values]
    for ref, value in zip(refs[1:], values[1:], strict=True):
        if value != values[0]:
            raise CheckFailed("check.refs", f"{ref} is {value!r} but {refs[0]} is {values[0]!r}")
    if "equals" in params and values[0] != normalize(params["equals"]):
        raise CheckFailed("check.equals", f"all are {values[0]!r}, pinned {params['equals']!r}")


def _field_names(obj: Any) -> set[str]:
    if isinstance(obj, type) and issubclass(obj, BaseModel):
        return set(obj.model_fields)
    if dataclasses.is_dataclass(obj):
        return {f.name for f in dataclasses.fields(obj)}
    if isinstance(obj, type) and hasattr(obj, "__members__"):
        return {str(normalize(m)) for m in obj.__members__.values()}
    raise CheckFailed("check.fields", f"{obj!r} has no fields to check")


def _symbol(spec: Mapping[str, Any], field: str) -> None:
    obj = resolve(require(spec, "ref"), f"{field}.ref")
    if spec.get("callable") and not callable(obj):
        raise CheckFailed(f"{field}.callable", f"{spec['ref']} is not callable")
    if "params" in spec:
        try:
            names = list(inspect.signature(obj).parameters)
        except (TypeError, ValueError) as exc:
            raise CheckFailed(f"{field}.params", f"{spec['ref']} has no signature") from exc
        if names != list(spec["params"]):
            raise CheckFailed(
                f"{field}.params", f"{spec['ref']} takes {names}, pinned {spec['params']}"
            )
    wanted = set(spec.get("fields", ()))
    missing = sorted(wanted - _field_names(obj)) if wanted else []
    if missing:
        raise CheckFailed(f"{field}.fields", f"{spec['ref']} lacks {', '.join(missing)}")


def symbol_exists(params: Mapping[str, Any], ctx: CheckContext) -> None:
    """A public name is importable where it is published, callable with the pinned
    parameters, with the pinned fields; ``symbols`` pins several names of one surface."""
    if "symbols" in params:
        for index, spec in enumerate(params["symbols"]):
            _symbol(spec, f"check.symbols[{index}]")
    else:
        _symbol(params, "check")


def transition_table(params: Mapping[str, Any], ctx: CheckContext) -> None:
    """The table has the pinned number of rows, one per (state, event) pair, unique row
    ids, and more illegal rows than legal ones (SPEC §6)."""
    defined_where_named(require(params, "ref"), ctx, "check.ref")
    rows = list(resolve(require(params, "ref")))
    expected = require(params, "rows")
    if len(rows) != expected:
        raise CheckFailed("check.rows", f"{params['ref']} has {len(rows)} rows, pinned {expected}")
    pairs = {(getattr(r, "source", None), getattr(r, "event", None)) for r in rows}
    if len(pairs) != len(rows):
        raise CheckFailed("check.rows", f"{len(rows) - len(pairs)} (state, event) pairs repeat")
    if len({getattr(r, "id", None) for r in rows}) != len(rows):
        raise CheckFailed("check.rows", f"{params['ref']} repeats a row id")
    illegal = sum(1 for row in rows if not getattr(row, "legal", True))
    if illegal * 2 <= len(rows):
        raise CheckFailed("check", f"only {illegal} of {len(rows)} rows are illegal (need > half)")
    for name in params.get("named_illegal", ()):
        if not any(getattr(r, "id", None) == name and not r.legal for r in rows):
            raise CheckFailed("check.named_illegal", f"no illegal row named {name!r}")


def generated_file(params: Mapping[str, Any], ctx: CheckContext) -> None:
    """A checked-in generated file is, byte for byte, what its generator writes from the
    source now (a generator that refuses inconsistent source fails the check too)."""
    file, ref = require(params, "file"), require(params, "generator")
    generator = resolve(ref, "check.generator")
    if not callable(generator):
        raise CheckFailed("check.generator", f"{ref} is not callable")
    path = ctx.root / file
    if not path.is_file():
        raise CheckFailed("check.file", f"{file} does not exist")
    try:
        expected = generator()
    except ValueError as exc:
        raise CheckFailed("check.generator", f"{ref} refused the source: {exc}") from exc
    if path.read_text(encoding="utf-8") != expected:
        fix = params.get("command", f"regenerate it with {ref}")
        raise CheckFailed("check.file", f"{file} is not what {ref} writes: run `{fix}`")


_REQ_NAME = re.compile(r"^\s*([A-Za-z0-9_.-]+)(\[[^\]]*\])?\s*(.*)$")


def dependency_pin(params: Mapping[str, Any], ctx: CheckContext) -> None:
    package, needs = require(params, "package"), require(params, "requires")
    data = tomllib.loads((ctx.root / "pyproject.toml").read_text(encoding="utf-8"))
    for requirement in data.get("project", {}).get("dependencies", []):
        match = _REQ_NAME.match(requirement)
        if match and match.group(1).lower() == str(package).lower():
            specs = {s.strip() for s in match.group(3).split(",") if s.strip()}
            missing = sorted(set(needs) - specs)
            if missing:
                raise CheckFailed("check.requires", f"{requirement!r} lacks {', '.join(missing)}")
            return
    raise CheckFailed("check.package", f"{package} is not a declared dependency")
