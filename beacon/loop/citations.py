"""Citations from structured result fields (never from prose).

The card kind follows the id's prefix, a stable upstream convention, among the
record kinds the source tool's row in the tool table (``beacon.wire.tools``)
says it returns; rows without such an id (an aggregate, a level) are uncitable
and need no card.

The server is host-blind: a card says *what* it cites and where that lives
(``target``: project, kind, id, level, panorama, as the record has them), and
each host adapter builds its own URL from that. ``deep_link`` (SPEC §4) is the
same target as a host-neutral URI, ``beacon:<kind>/<id>?project=<id>``: a name
for the record, never an address in any host.

The target's place (``beacon.wire.targets``) is read from the record's own
fields: ``view`` ``{position, look_at, direction}``, ``bim`` ``{model, element,
level}``, ``organisation``, ``project_name``, ``review`` and ``team``. A record
without one has a target without it; a malformed view (NaN, two numbers, a
direction of zeros) is dropped here, never forwarded to a host's camera.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from itertools import islice
from typing import Any
from urllib.parse import quote

from beacon.wire.targets import MAX_NAME_CHARS, SCOPE_FIELDS, bim_reference, camera_view
from beacon.wire.tools import RecordKind, tool_spec

MAX_CARDS_PER_SOURCE = 10
LINK_SCHEME = "beacon"
_DATE_FIELDS = ("taken_at", "created_at", "captured_at", "date")
_TITLE_FIELDS = ("title", "label", "name")
# The target's fields read from the record's place, in the packed card's order.
PLACE_FIELDS = ("view", "bim", *SCOPE_FIELDS)
_NO_PLACE: Mapping[str, Any] = dict.fromkeys(PLACE_FIELDS)


def records_of(result: dict[str, Any], limit: int | None = None) -> list[dict[str, Any]]:
    """The result's records (``items`` or ``rows``, objects only); the first ``limit``."""
    structured = result.get("structuredContent")
    if not isinstance(structured, dict):
        return []
    for key in ("items", "rows"):
        value = structured.get(key)
        if isinstance(value, list):
            records = (r for r in value if isinstance(r, dict))
            return list(records if limit is None else islice(records, limit))
    return []


def _kind(source: str, record_id: str) -> str | None:
    """The record kind ``record_id`` names, if the source tool returns that kind."""
    return _kind_among(_cites(source), record_id)


def _cites(source: str) -> tuple[RecordKind, ...]:
    spec = tool_spec(source)
    return spec.cites if spec is not None else ()


def _kind_among(cites: tuple[RecordKind, ...], record_id: str) -> str | None:
    for kind in cites:
        if record_id.startswith(kind.id_prefix):
            return kind.name
    return None


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


def _name(value: object) -> str | None:
    return value if isinstance(value, str) and 0 < len(value) <= MAX_NAME_CHARS else None


# The record fields record_place reads: a record with none of them has no place.
_PLACE_KEYS = frozenset(("view", "bim", "organisation", "project_name", "review", "team"))


def record_place(record: Mapping[str, Any]) -> dict[str, Any]:
    """The camera view, BIM reference and host scope ``record`` carries (PLACE_FIELDS),
    each None where it carries none or a malformed one."""
    return {
        "view": camera_view(record.get("view")),
        "bim": bim_reference(record.get("bim")),
        "organisation": _name(record.get("organisation")),
        "project": _name(record.get("project_name")),
        "review": _name(record.get("review")),
        "team": _name(record.get("team")),
    }


def link_target(
    kind: str,
    record_id: str,
    project_id: str | None,
    *,
    level_number: int | None = None,
    panorama_id: str | None = None,
    place: Mapping[str, Any] = _NO_PLACE,
) -> dict[str, Any]:
    """Where a cited record lives, host-neutral (a ``CitationTarget``'s fields); ``place``
    is what ``record_place`` read from the record.

    A project is its own project; a panorama is its own panorama.
    """
    return {
        "kind": kind,
        "id": record_id,
        "project_id": record_id if kind == "project" else project_id,
        "level_number": level_number,
        "panorama_id": record_id if kind == "panorama" else panorama_id,
        **{name: place.get(name) for name in PLACE_FIELDS},
    }


def deep_link(target: dict[str, Any]) -> str:
    """The target as a host-neutral URI: ``beacon:<kind>/<id>[?project=<id>]``."""
    path = f"{LINK_SCHEME}:{_quoted(target['kind'])}/{_quoted(target['id'])}"
    project = target.get("project_id")
    return f"{path}?project={_quoted(project)}" if project else path


# What percent-encoding leaves as it is (RFC 3986's unreserved characters): most
# ids are only that, and are used as they are without quote()'s per-byte walk.
_UNRESERVED = re.compile(r"[A-Za-z0-9_.~-]*")


def _quoted(value: str) -> str:
    return value if _UNRESERVED.fullmatch(value) else quote(value, safe="")


def _int(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _str(value: object) -> str | None:
    return value if isinstance(value, str) and value else None


def _citable_kind(source: str, record: Mapping[str, Any]) -> str | None:
    return _citable_among(_cites(source), record)


def _citable_among(cites: tuple[RecordKind, ...], record: Mapping[str, Any]) -> str | None:
    """The kind ``record``'s id names among ``cites`` (a source's), None if uncitable."""
    record_id = record.get("id")
    return _kind_among(cites, record_id) if isinstance(record_id, str) else None


def card_fields(
    source: str, record: dict[str, Any], project_id: str | None
) -> dict[str, Any] | None:
    """One record's card as plain fields (a Citation's), or None when it is uncitable.

    Every value is type-checked here, so these fields always make a valid
    Citation; the cards waiting for load-more stay in this form (a 3000-row page
    keeps 500 of them, and building models for them cost more than the turn's
    adjudication).
    """
    kind = _citable_kind(source, record)
    if kind is None:
        return None
    record_id = record["id"]
    target = link_target(
        kind,
        record_id,
        project_id or _str(record.get("project_id")),
        level_number=_int(record.get("level_number")),
        panorama_id=_str(record.get("capture_id")),
        place=record_place(record),
    )
    title, thumbnail, level, date = _card_text(record, record_id)
    return {
        "id": record_id,
        "source": source,
        "kind": kind,
        "title": title,
        "deep_link": deep_link(target),
        "target": target,
        "thumbnail": thumbnail,
        "level": level,
        "date": date,
    }


def _card_text(
    record: dict[str, Any], record_id: str
) -> tuple[str, str | None, str | None, str | None]:
    """A card's title, thumbnail, level name and day, as a card and a packed card read them."""
    thumbnail = record.get("thumbnail")
    return (
        _first_str(record, _TITLE_FIELDS) or record_id,
        thumbnail if isinstance(thumbnail, str) else None,
        _level(record),
        (_first_str(record, _DATE_FIELDS) or "")[:10] or None,
    )


def card_list(
    source: str, records: Sequence[dict[str, Any]], project_id: str | None, limit: int
) -> tuple[list[dict[str, Any]], int]:
    """The first ``limit`` citable records' cards, in the upstream's order, and
    where in ``records`` the next card would be looked for."""
    cards: list[dict[str, Any]] = []
    for at, record in enumerate(records):
        if len(cards) >= limit:
            return cards, at
        card = card_fields(source, record, project_id)
        if card is not None:
            cards.append(card)
    return cards, len(records)


class PendingCards:
    """The cards of a page past the shown ones (load-more serves them), made the
    first time they are read.

    A 3000-row page waits on 500 of them; making them where the page is
    adjudicated held the answer request back by about a millisecond and a half.
    They are first read once the answer request has gone out (the page record the
    answer saves, packed straight from the records; the narrowing's tallies), while
    the model is working. Whether there are any is answered from the first
    citable record alone.
    """

    __slots__ = ("_cards", "_limit", "_packed", "_project_id", "_records", "_source")

    def __init__(
        self, source: str, records: Sequence[dict[str, Any]], project_id: str | None, limit: int
    ) -> None:
        self._source, self._project_id, self._limit = source, project_id, limit
        self._records = records if limit > 0 else ()
        self._cards: tuple[dict[str, Any], ...] | None = None
        self._packed: tuple[list[Any], ...] | None = None

    def _citable(self) -> Iterator[tuple[dict[str, Any], str]]:
        """The citable records up to the limit, each with its kind (``_citable_kind``,
        the source's row read once for all of them)."""
        found = 0
        cites = _cites(self._source)
        for record in self._records:
            if found >= self._limit:
                return
            if (kind := _citable_among(cites, record)) is not None:
                found += 1
                yield record, kind

    def cards(self) -> tuple[dict[str, Any], ...]:
        """As Citation fields."""
        if self._cards is None:
            cards, _ = card_list(self._source, self._records, self._project_id, self._limit)
            self._cards = tuple(cards)
        return self._cards

    def packed(self) -> tuple[list[Any], ...]:
        """As the page record keeps them: ``pack_card`` of each card, made from the
        record without building the card."""
        if self._packed is None:
            self._packed = tuple(pack_record(self._source, r, kind) for r, kind in self._citable())
        return self._packed

    def __bool__(self) -> bool:
        return any(True for _ in self._citable())

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PendingCards) and self.packed() == other.packed()

    __hash__ = None  # type: ignore[assignment]  # equal by content, which is built lazily

    def __repr__(self) -> str:
        state = "unbuilt" if self._cards is None else f"{len(self._cards)} cards"
        return f"PendingCards({self._source!r}, {state})"


NO_PENDING = PendingCards("", (), None, 0)


# A card waiting for load-more is kept as its own fields only, in this order;
# what follows from its id, tool and project (kind, target, deep link) is
# rebuilt when it is served. (500 waiting cards were 120 KB as dicts, 38 KB
# packed.) Records kept before the target existed packed the first five only,
# those before its place the first seven; a card packs no trailing nulls.
PACKED_FIELDS = (
    "id", "title", "thumbnail", "level", "date", "level_number", "panorama_id", *PLACE_FIELDS,
)  # fmt: skip
_PACKED_MIN = 5


def pack_card(card: dict[str, Any]) -> list[Any]:
    target = card["target"]
    packed = [
        card["id"],
        card["title"],
        card["thumbnail"],
        card["level"],
        card["date"],
        target["level_number"],
        None if target["panorama_id"] == card["id"] else target["panorama_id"],
        *(target.get(name) for name in PLACE_FIELDS),
    ]
    while len(packed) > _PACKED_MIN and packed[-1] is None:
        packed.pop()
    return packed


def pack_record(source: str, record: dict[str, Any], kind: str | None = None) -> list[Any]:
    """``pack_card(card_fields(source, record, project))`` for a citable record (of
    ``kind``, when its caller knows it), without the card's target, deep link and
    dict: what a packed card leaves out, the project among it."""
    record_id = record["id"]
    own = (kind or _kind(source, record_id)) == "panorama"
    panorama = record_id if own else _str(record.get("capture_id"))
    packed = [
        record_id,
        *_card_text(record, record_id),
        _int(record.get("level_number")),
        None if panorama == record_id else panorama,
    ]
    if not _PLACE_KEYS.isdisjoint(record):  # most records have no place: all None
        place = record_place(record)
        packed.extend(place[name] for name in PLACE_FIELDS)
    while len(packed) > _PACKED_MIN and packed[-1] is None:
        packed.pop()
    return packed


def unpack_card(
    packed: list[Any] | dict[str, Any], source: str, project_id: str | None
) -> dict[str, Any]:
    """A packed card's Citation fields (a dict is an already whole card, as older
    records kept them; one kept before targets existed gets its target now)."""
    if isinstance(packed, dict):
        if "target" in packed:
            return packed
        kind, record_id = str(packed["kind"]), str(packed["id"])
        target = link_target(kind, record_id, project_id)
        return {**packed, "deep_link": deep_link(target), "target": target}
    if len(packed) > len(PACKED_FIELDS) or len(packed) < _PACKED_MIN:
        raise ValueError(f"a packed card has {len(packed)} fields, not {len(PACKED_FIELDS)}")
    fields: dict[str, Any] = dict.fromkeys(PACKED_FIELDS)
    fields.update(zip(PACKED_FIELDS, packed, strict=False))
    kind = _kind(source, fields["id"]) or "record"
    target = link_target(
        kind,
        fields["id"],
        project_id,
        level_number=fields["level_number"],
        panorama_id=fields["panorama_id"],
        place=fields,
    )
    return {
        "id": fields["id"],
        "source": source,
        "kind": kind,
        "title": fields["title"],
        "deep_link": deep_link(target),
        "target": target,
        "thumbnail": fields["thumbnail"],
        "level": fields["level"],
        "date": fields["date"],
    }
