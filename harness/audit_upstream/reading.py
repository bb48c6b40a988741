"""What one raw tool result says: its items, its accounting and whether it is a result.

Text is a result: with no structured content, items are counted from the text
(a JSON array or object inside a text block, a numbered or bulleted list, table
rows, or plain lines), and the reading says which. Pure: no I/O.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import jsonschema

from beacon.upstream.items import items_from_text, largest_array, pointer, texts_of
from harness.audit_upstream import names

# A one-line text that reads as a failure: it starts with one, names one with a colon,
# says something "is invalid", or carries an HTTP error status ("… 502 Bad Gateway").
_ERROR_TEXT = re.compile(
    r"^\W*(error|exception|traceback|failed|failure|invalid|unauthori[sz]ed|forbidden|denied)\b"
    r"|\b(error|exception|failure)\s*:"
    r"|\b(is|was|has)\s+(invalid|expired|denied|forbidden|unauthori[sz]ed|failed)\b"
    r"|\b[45]\d\d\b.*\b(error|gateway|unavailable|forbidden|unauthori[sz]ed)\b"
    r"|\btimed out\b",
    re.IGNORECASE,
)
# Counts a text may carry: "Total: 60 files", "12 of 300", "showing 10 of 57", "0 results".
_TEXT_TOTAL = re.compile(
    r"\b(?:total(?:\s+\w+)?\s*[:=]?\s*(\d+)|(\d+)\s+(?:of|out of)\s+(\d+)|"
    r"(\d+)\s+(?:results?|matches|items|entries|rows|records)\s+(?:found|total|in all))\b",
    re.IGNORECASE,
)
_TEXT_NONE = re.compile(r"\bno\s+(?:\w+\s+){0,2}(?:found|matched|match)\b", re.IGNORECASE)
_TEXT_MORE = re.compile(r"\b(truncated|more (?:results|items|entries) (?:available|exist))\b", re.I)


@dataclass(frozen=True, slots=True)
class Field:
    """An accounting field and where it was found (a JSON pointer into the result)."""

    path: str
    value: Any


@dataclass(frozen=True, slots=True)
class Reading:
    is_error: bool
    items: int
    keys: tuple[str, ...]  # item identities, for page overlap
    source: str  # where the items were counted
    structured: bool
    total: Field | None = None
    lower_bound: Field | None = None
    has_more: Field | None = None
    next_cursor: Field | None = None
    text_count: Field | None = None  # a count stated in prose
    schema_errors: tuple[str, ...] = ()
    error_text: str | None = None  # isError false, but the text reads as a failure
    empty_object: bool = False  # ``{}``: no result structure at all
    titles: tuple[str, ...] = ()  # short texts of items, for later probes
    label: str | None = None  # the result's own ``result_kind`` (search / rows), if any

    @property
    def accounted(self) -> bool:
        """A total, a lower bound, a has-more flag or a stated count (a cursor alone is not)."""
        return any((self.total, self.lower_bound, self.has_more, self.text_count))

    @property
    def more(self) -> bool | None:
        """Whether the result says more items exist (None: it does not say)."""
        if self.has_more is not None and isinstance(self.has_more.value, bool):
            return self.has_more.value
        if self.next_cursor is not None and self.next_cursor.value not in (None, ""):
            return True
        return None

    def fields_seen(self) -> dict[str, Any]:
        seen = {
            f.path: f.value
            for f in (
                self.total,
                self.lower_bound,
                self.has_more,
                self.next_cursor,
                self.text_count,
            )
            if f is not None
        }
        return {
            k: (v[:24] + "…" if isinstance(v, str) and len(v) > 25 else v) for k, v in seen.items()
        }


def _scan(value: Any, path: tuple[object, ...], depth: int) -> Iterator[tuple[str, Any, str]]:
    """(folded key, value, pointer) of every object member down to ``depth``."""
    if not isinstance(value, dict) or depth < 0:
        return
    for key, inner in value.items():
        yield names.flat(str(key)), inner, pointer(*path, key)
        yield from _scan(inner, (*path, key), depth - 1)


def _accounting(raw: dict[str, Any]) -> dict[str, Field]:
    found: dict[str, Field] = {}
    places: list[tuple[Any, tuple[object, ...]]] = [
        (raw.get("structuredContent"), ("structuredContent",)),
        (raw.get("_meta"), ("_meta",)),
    ]
    for i, block in enumerate(raw.get("content") or ()):
        if isinstance(block, dict):
            places.append((block.get("_meta"), ("content", i, "_meta")))
    groups = (
        ("total", names.TOTAL_FIELDS),
        ("lower_bound", names.LOWER_BOUND_FIELDS),
        ("has_more", names.HAS_MORE_FIELDS),
        ("next_cursor", names.NEXT_CURSOR_FIELDS),
    )
    for value, path in places:
        for key, inner, where in _scan(value, path, 2):
            for group, keys in groups:
                if group in found or key not in {names.flat(k) for k in keys}:
                    continue
                if group in ("total", "lower_bound") and not _count(inner):
                    continue
                if group == "has_more" and not isinstance(inner, bool):
                    continue
                found[group] = Field(where, inner)
    return found


def _count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _identity(item: Any) -> str:
    if isinstance(item, dict):
        for key in names.ID_FIELDS:
            if isinstance(item.get(key), str | int) and not isinstance(item.get(key), bool):
                return f"{key}={item[key]}"
        return json.dumps(item, sort_keys=True, default=str)[:200]
    return str(item)[:200]


def _titles(items: list[Any]) -> tuple[str, ...]:
    found = []
    for item in items[:5]:
        if isinstance(item, dict):
            for key in ("title", "name", "label", "summary"):
                if isinstance(item.get(key), str) and item[key].strip():
                    found.append(item[key].strip())
                    break
    return tuple(found)


def _linked(raw: dict[str, Any]) -> list[Any]:
    """Resource links and embedded resources: each block one item (by its URI)."""
    return [
        (b.get("uri") or (b.get("resource") or {}).get("uri") or json.dumps(b)[:200])
        for b in raw.get("content") or ()
        if isinstance(b, dict) and b.get("type") in ("resource_link", "resource")
    ]


def _text_count(texts: list[str]) -> Field | None:
    text = "\n".join(texts)
    found = _TEXT_TOTAL.search(text)
    if found:
        number = next(int(g) for g in (found.group(1), found.group(3), found.group(4)) if g)
        return Field("text", number)
    if _TEXT_NONE.search(text):
        return Field("text", 0)
    if _TEXT_MORE.search(text):
        return Field("text", "more")
    return None


def schema_errors(schema: dict[str, Any], structured: Any) -> tuple[str, ...]:
    try:
        validator_cls = jsonschema.validators.validator_for(schema)
        validator = validator_cls(schema)
        errors = sorted(validator.iter_errors(structured), key=lambda e: list(e.path))
    except jsonschema.SchemaError as exc:
        return (f"the declared output schema is itself invalid: {exc.message}",)
    return tuple(f"{pointer('structuredContent', *e.path)}: {e.message[:160]}" for e in errors[:5])


def read(raw: dict[str, Any], output_schema: dict[str, Any] | None) -> Reading:
    is_error = raw.get("isError") is True
    structured = raw.get("structuredContent")
    texts = texts_of(raw)
    blocks = len(raw.get("content") or ())
    accounting = _accounting(raw)
    problems: tuple[str, ...] = ()
    if output_schema is not None and structured is not None and not is_error:
        problems = schema_errors(output_schema, structured)
    found = largest_array(structured, ("structuredContent",)) if structured else None
    prose = _prose_field(structured, "\n".join(texts))
    if found is not None:
        items, source = found
    elif prose is not None:
        # ``{"content": "<the text>"}``: the structure only wraps the prose.
        items, how = items_from_text([prose[1]], 1)
        source = f"{pointer('structuredContent', prose[0])} ({how})"
        texts = [prose[1]]
    elif isinstance(structured, dict) and structured:
        items, source = [structured], "/structuredContent (one object)"
    elif linked := _linked(raw):
        items, source = linked, f"content: {len(linked)} resource blocks"
    else:
        items, source = items_from_text(texts, blocks)
    joined = "\n".join(texts).strip()
    lines = [line for line in joined.splitlines() if line.strip()]
    error_text = None
    if not is_error and structured is None:
        if output_schema is not None:
            error_text = "no structuredContent although the tool declares an output schema"
        elif len(lines) == 1 and _ERROR_TEXT.search(lines[0]):
            error_text = lines[0][:160]
    return Reading(
        is_error=is_error,
        items=len(items),
        keys=tuple(_identity(i) for i in items),
        source=source,
        structured=structured is not None,
        total=accounting.get("total"),
        lower_bound=accounting.get("lower_bound"),
        has_more=accounting.get("has_more"),
        next_cursor=accounting.get("next_cursor"),
        text_count=None
        if is_error or (structured is not None and prose is None)
        else _text_count(texts),
        schema_errors=problems,
        error_text=error_text,
        empty_object=not is_error and structured in (None, {}) and joined == "{}",
        titles=_titles(items),
        label=_label(structured),
    )


def _prose_field(structured: Any, text: str) -> tuple[str, str] | None:
    """The one string member of a structured result that carries the text, if that is all."""
    if not isinstance(structured, dict) or len(structured) != 1:
        return None
    key, value = next(iter(structured.items()))
    if isinstance(value, str) and (value.strip() == text.strip() or "\n" in value):
        return str(key), value
    return None


def _label(structured: Any) -> str | None:
    value = structured.get("result_kind") if isinstance(structured, dict) else None
    return value if value in ("search", "rows") else None
