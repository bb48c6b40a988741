"""Disguised failure: a 200 whose body is an error, caught by envelope absence.

A real result carries at least one of four marks; any one clears it. The error
text itself is never classified: keying on upstream wording would be one
rewording away from a false green.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from beacon.adjudication.tools import has_result_contract

# Program-owned first lines the upstream prints when a query really ran. Used
# only to *clear* a payload: if upstream rewords them we fall back to status quo.
QUERY_RAN_PREFIXES: tuple[str, ...] = ("Query executed successfully.", "Search results for ")
_TABLE = re.compile(r"^\|.*\|\s*\n\|[\s:|-]+\|", re.MULTILINE)


def _blocks(result: dict[str, Any]) -> list[dict[str, Any]]:
    content = result.get("content")
    return [b for b in content if isinstance(b, dict)] if isinstance(content, list) else []


def _texts(result: dict[str, Any]) -> list[str]:
    return [b["text"] for b in _blocks(result) if isinstance(b.get("text"), str)]


def has_envelope(result: dict[str, Any]) -> bool:
    if any(isinstance(b.get("_meta"), dict) and b["_meta"] for b in _blocks(result)):
        return True
    structured = result.get("structuredContent")
    return isinstance(structured, dict) and bool(structured)


def has_findings_structure(result: dict[str, Any]) -> bool:
    """A result table in the text, even with zero rows: the server answered
    with a result set. (Structured rows already count as an envelope.)"""
    return any(_TABLE.search(text) for text in _texts(result))


def opens_with_query_ran_line(result: dict[str, Any]) -> bool:
    return any(text.lstrip().startswith(QUERY_RAN_PREFIXES) for text in _texts(result))


def is_in_band_failure(tool: str, result: object, *, transport_status: int = 200) -> bool:
    # The transport is read before the body: `{}` after a 401 is not "no data".
    if transport_status != 200 or not isinstance(result, dict):
        return True
    if result.get("isError") is True:
        return True
    if not has_result_contract(tool):
        return False  # prose is that tool's answer
    return not (
        has_envelope(result) or has_findings_structure(result) or opens_with_query_ran_line(result)
    )


@dataclass(frozen=True, slots=True)
class Fingerprint:
    """What a log may say about a payload: shape only, never content."""

    block_count: int
    block_types: tuple[str, ...]
    meta_keys: tuple[str, ...]
    structured_keys: tuple[str, ...]
    is_error: bool


def fingerprint(result: object) -> Fingerprint:
    if not isinstance(result, dict):
        return Fingerprint(0, (), (), (), False)
    blocks = _blocks(result)
    meta_keys = sorted({k for b in blocks if isinstance(b.get("_meta"), dict) for k in b["_meta"]})
    structured = result.get("structuredContent")
    return Fingerprint(
        block_count=len(blocks),
        block_types=tuple(str(b.get("type", "?")) for b in blocks),
        meta_keys=tuple(meta_keys),
        structured_keys=tuple(sorted(structured)) if isinstance(structured, dict) else (),
        is_error=result.get("isError") is True,
    )
