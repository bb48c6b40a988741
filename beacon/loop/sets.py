"""Sets from fields: "which companies …" is a field read, never a top-k search.

The members are computed in code from a typed field of *every* record the
result returned — not from the cards, which are a display sample — and
handed to the model to describe. Where the members come from stays part of
the answer: a company that appears in findings is not thereby listed in
documents. Records without the field are counted and reported, never dropped
in silence.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from beacon.loop.citations import records_of

# Typed fields a "which …" question can enumerate, by the words that ask for them.
SET_FIELDS: Mapping[str, tuple[str, ...]] = {
    "company": (
        "company",
        "companies",
        "contractor",
        "contractors",
        "subcontractor",
        "subcontractors",
    ),
    "category": ("category", "categories"),
    "status": ("status", "statuses"),
    "level_number": ("level", "levels", "floor", "floors"),
    "discipline": ("discipline", "disciplines"),
    "kind": ("type", "types", "kind", "kinds"),
}
_ASKS = re.compile(r"\b(?:which|what)\s+([a-z]+)", re.IGNORECASE)
# What a member's presence in a tool's records means (used-in vs listed-in).
RELATION: Mapping[str, str] = {
    "query_data": "appears_in_records",
    "list_annotations": "appears_in_findings",
    "search_documents": "named_in_documents",
    "get_clash_report": "appears_in_clashes",
}


@dataclass(frozen=True, slots=True)
class Enumeration:
    field: str
    members: tuple[str, ...]
    complete: bool
    relation: str
    without_field: int  # records that had no value for the field

    def wire(self, source: str, slot: str) -> dict[str, Any]:
        return {
            "source": source,
            "slot": slot,
            "method": "enumerate",
            "field": self.field,
            "members": list(self.members),
            "complete": self.complete,
            "relation": self.relation,
            "without_field": self.without_field,
        }


def asked_field(question: str) -> str | None:
    for word in _ASKS.findall(question):
        for field, words in SET_FIELDS.items():
            if word.lower() in words:
                return field
    return None


def _member(value: object) -> str | None:
    if isinstance(value, bool) or value is None or value == "":
        return None
    return str(value) if isinstance(value, str | int | float) else None


def enumerate_field(
    tool: str, result: dict[str, Any], field: str, *, complete: bool
) -> Enumeration | None:
    records = records_of(result)
    if not records or not any(field in r for r in records):
        return None
    values = [_member(r.get(field)) for r in records]
    members = sorted(
        {v for v in values if v is not None}, key=lambda v: (len(v), v) if v.isdigit() else (0, v)
    )
    return Enumeration(
        field,
        tuple(members),
        complete,
        RELATION.get(tool, "appears_in_records"),
        sum(v is None for v in values),
    )
