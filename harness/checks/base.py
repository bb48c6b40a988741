"""What every check is given (the checkout and the boundary it guards), and the two
tests several kinds share: a value against a JSON Schema, a pin where its value is defined."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jsonschema

from harness.refs import CheckFailed, defined_names, module_file


@dataclass(frozen=True, slots=True)
class CheckContext:
    root: Path
    boundary_id: str


Check = Callable[[Mapping[str, Any], CheckContext], None]


def validate(instance: Any, schema: Any, field: str) -> None:
    try:
        jsonschema.Draft202012Validator.check_schema(schema)
    except jsonschema.SchemaError as exc:
        raise CheckFailed(field, f"the pinned schema is not a JSON Schema: {exc.message}") from exc
    errors = sorted(
        jsonschema.Draft202012Validator(schema).iter_errors(instance),
        key=lambda e: list(map(str, e.absolute_path)),
    )
    if errors:
        where = "/".join(map(str, errors[0].absolute_path)) or "(root)"
        raise CheckFailed(field, f"at {where}: {errors[0].message[:300]}")


def defined_where_named(ref: str, ctx: CheckContext, field: str) -> None:
    """A pin names the module that defines the value: a pin of a re-export (or two pins of
    one constant through two re-exports) compares a value with itself and cannot fail."""
    module, _, name = ref.partition(":")
    if name.split(".")[0] not in defined_names(module_file(module, ctx.root)):
        raise CheckFailed(field, f"{ref} is imported there, not defined: pin where it is defined")
