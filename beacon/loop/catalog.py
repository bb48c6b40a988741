"""The upstream's tool catalog, as the planner model receives it (OpenAI wire).

The catalog is most of the model's input, so it goes out whole only where the
model chooses among tools — the planner's first request — and is compacted
without losing meaning: ``title`` keys (the property name already says it) go;
an optional parameter spelled ``anyOf: [X, {"type": "null"}], default: null``
becomes plain X (it is optional because ``required`` does not name it, and
omitting it means null); and the bounds only a validator reads (lengths,
minimum and maximum, ``additionalProperties``) go — the upstream checks every
call against its own schema and a call out of bounds comes back as its
validation error, so the model is told what to pass, not how it is policed.
A later round re-asks or corrects what the first one planned: it carries only
the tools the turn has called and the one a correction names
(``working_set``), and never a second copy of the rest.

One thing is left out on purpose: the ``cursor`` parameter. Paging is code's
job — load-more fetches the next page and the stitcher checks it against the
ones shown — so the planner is never offered a page handle (and an
alternative that required one, as ``query_data``'s ``anyOf`` does, goes too).
"""

from __future__ import annotations

import json
from collections.abc import Collection
from typing import Any

_NULL = {"type": "null"}
# Compacted tools by their listing (canonical JSON): the upstream lists the same
# catalog on every turn, and compacting it again cost ~0.4 ms of each turn.
# Bounded, so a catalog that keeps changing cannot grow it without end.
_COMPACTED: dict[str, dict[str, Any]] = {}
_COMPACTED_MAX = 512
_BY_IDENTITY: dict[int, tuple[dict[str, Any], dict[str, Any]]] = {}


def _optional_as_plain(schema: dict[str, Any]) -> dict[str, Any]:
    variants = schema.get("anyOf")
    if (
        isinstance(variants, list)
        and len(variants) == 2
        and _NULL in variants
        and schema.get("default") is None
    ):
        (kept,) = [v for v in variants if v != _NULL]
        rest = {k: v for k, v in schema.items() if k not in ("anyOf", "default")}
        return {**kept, **rest} if isinstance(kept, dict) else schema
    return schema


# Keywords only a validator acts on (each with the JSON type its value has there, so a
# property that happens to be named "minimum" is never dropped).
_VALIDATOR_ONLY: dict[str, type | tuple[type, ...]] = {
    "title": str,
    "minLength": int,
    "maxLength": int,
    "minimum": (int, float),
    "maximum": (int, float),
    "additionalProperties": bool,
}


def _validator_only(key: str, value: Any) -> bool:
    kind = _VALIDATOR_ONLY.get(key)
    return kind is not None and isinstance(value, kind)


def compact_schema(schema: Any) -> Any:
    if isinstance(schema, dict):
        cleaned = {k: compact_schema(v) for k, v in schema.items() if not _validator_only(k, v)}
        return _optional_as_plain(cleaned)
    if isinstance(schema, list):
        return [compact_schema(v) for v in schema]
    return schema


PAGING = "cursor"


def without_paging(schema: Any) -> Any:
    """``schema`` without the cursor parameter, nor any alternative requiring it."""
    if not isinstance(schema, dict):
        return schema
    properties = schema.get("properties")
    if not isinstance(properties, dict) or PAGING not in properties:
        return schema
    out = {**schema, "properties": {k: v for k, v in properties.items() if k != PAGING}}
    if isinstance(out.get("required"), list):
        out["required"] = [name for name in out["required"] if name != PAGING]
    alternatives = out.get("anyOf")
    if isinstance(alternatives, list):
        kept = [
            a
            for a in alternatives
            if not (isinstance(a, dict) and PAGING in (a.get("required") or []))
        ]
        if len(kept) == 1 and isinstance(kept[0], dict) and set(kept[0]) == {"required"}:
            # One way left to call it: say so plainly.
            del out["anyOf"]
            out["required"] = [*out.get("required", []), *kept[0]["required"]]
        elif kept:
            out["anyOf"] = kept
        else:
            del out["anyOf"]
    if out.get("required") == []:
        del out["required"]
    return out


def _function(tool: dict[str, Any]) -> dict[str, Any]:
    # The upstream link hands out one listing object while the upstream's catalog is
    # unchanged (beacon/upstream/mcp_client.py): known by identity, no key to build.
    # The entry holds the tool itself, so its id cannot be reused while it is here.
    seen = _BY_IDENTITY.get(id(tool))
    if seen is not None and seen[0] is tool:
        return seen[1]
    key = json.dumps(tool, sort_keys=True, separators=(",", ":"))
    found = _COMPACTED.get(key)
    if found is None:
        found = {
            "type": "function",
            "function": {
                "name": tool["name"],
                "description": tool.get("description", ""),
                "parameters": without_paging(
                    compact_schema(tool.get("inputSchema", {"type": "object"}))
                ),
            },
        }
        if len(_COMPACTED) < _COMPACTED_MAX:
            _COMPACTED[key] = found
    if len(_BY_IDENTITY) >= _COMPACTED_MAX:
        # The oldest goes: a listing rebuilt every turn (a contract fixing arguments)
        # must not keep dead tools alive here nor crowd out the one that stays.
        _BY_IDENTITY.pop(next(iter(_BY_IDENTITY)))
    _BY_IDENTITY[id(tool)] = (tool, found)
    return found


def openai_tools(listed: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The planner's catalog. Entries may be shared between turns: read-only."""
    return [_function(t) for t in listed]


def working_set(catalog: list[dict[str, Any]], names: Collection[str]) -> list[dict[str, Any]]:
    """The catalog a planner round after the first carries: the named tools, in the
    catalog's order (a stable prefix), and nothing the turn has not reached for."""
    return [tool for tool in catalog if tool["function"]["name"] in names]
