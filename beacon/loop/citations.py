"""Citations from structured result fields (never from prose).

The card kind follows the id's prefix, a stable upstream convention; rows
without an id (an aggregate) are uncitable and need no card.
"""

from __future__ import annotations

from typing import Any

MAX_CARDS_PER_SOURCE = 10
_KINDS = {
    "ph-": "photo",
    "cap-": "panorama",
    "ann-": "annotation",
    "prj-": "project",
    "doc-": "document",
}
_DATE_FIELDS = ("taken_at", "created_at", "captured_at", "date")
_TITLE_FIELDS = ("title", "label", "name")


def records_of(result: dict[str, Any]) -> list[dict[str, Any]]:
    structured = result.get("structuredContent")
    if not isinstance(structured, dict):
        return []
    for key in ("items", "rows"):
        value = structured.get(key)
        if isinstance(value, list):
            return [r for r in value if isinstance(r, dict)]
    return []


def _kind(record_id: str) -> str | None:
    # Every prefix runs to the id's first dash: one lookup, not a scan.
    dash = record_id.find("-")
    return _KINDS.get(record_id[: dash + 1]) if dash > 0 else None


def _first_str(record: dict[str, Any], names: tuple[str, ...]) -> str | None:
    for name in names:
        value = record.get(name)
        if isinstance(value, str) and value:
            return value
    return None


def _level(record: dict[str, Any]) -> str | None:
    name = record.get("level_name")
    if isinstance(name, str) and name:
        return name
    number = record.get("level_number")
    return f"Level {number}" if isinstance(number, int) else None


def deep_link(kind: str, record_id: str, project_id: str | None) -> str:
    project = f"project={project_id}&" if project_id else ""
    return f"/hosts/viewer?{project}{kind}={record_id}"


def card_fields(
    source: str, record: dict[str, Any], project_id: str | None
) -> dict[str, Any] | None:
    """One record's card as plain fields (a Citation's), or None when it is uncitable.

    Every value is type-checked here, so these fields always make a valid
    Citation; the cards waiting for load-more stay in this form (a 3000-row page
    keeps 500 of them, and building models for them cost more than the turn's
    adjudication).
    """
    record_id = record.get("id")
    if not isinstance(record_id, str) or (kind := _kind(record_id)) is None:
        return None
    thumbnail = record.get("thumbnail")
    return {
        "id": record_id,
        "source": source,
        "kind": kind,
        "title": _first_str(record, _TITLE_FIELDS) or record_id,
        "deep_link": deep_link(kind, record_id, project_id),
        "thumbnail": thumbnail if isinstance(thumbnail, str) else None,
        "level": _level(record),
        "date": (_first_str(record, _DATE_FIELDS) or "")[:10] or None,
    }


def card_list(
    source: str, records: list[dict[str, Any]], project_id: str | None, limit: int
) -> list[dict[str, Any]]:
    """The first ``limit`` citable records' cards, in the upstream's order."""
    cards: list[dict[str, Any]] = []
    for record in records:
        card = card_fields(source, record, project_id)
        if card is None:
            continue
        cards.append(card)
        if len(cards) >= limit:
            break
    return cards


# A card waiting for load-more is kept as its own fields only, in this order;
# what follows from its id, tool and project (kind, deep link) is rebuilt when
# it is served. (500 waiting cards were 120 KB as dicts, 38 KB packed.)
PACKED_FIELDS = ("id", "title", "thumbnail", "level", "date")


def pack_card(card: dict[str, Any]) -> list[Any]:
    return [card[name] for name in PACKED_FIELDS]


def unpack_card(
    packed: list[Any] | dict[str, Any], source: str, project_id: str | None
) -> dict[str, Any]:
    """A packed card's Citation fields (a dict is an already whole card, as older
    records kept them)."""
    if isinstance(packed, dict):
        return packed
    fields = dict(zip(PACKED_FIELDS, packed, strict=True))
    kind = _kind(fields["id"]) or "record"
    return {
        "id": fields["id"],
        "source": source,
        "kind": kind,
        "title": fields["title"],
        "deep_link": deep_link(kind, fields["id"], project_id),
        "thumbnail": fields["thumbnail"],
        "level": fields["level"],
        "date": fields["date"],
    }
