"""The items of a raw tool result that carries no structure Beacon knows: shared by the
upstream audit (which measures a server) and the contract adapter (which fronts one).

Text is a result: where a server declares no output schema, prose is its answer
(seed 000 §4.4), and its items are counted from the text — a JSON array or
object inside a text block, a numbered or bulleted list, headed sections, table
rows, repeated ``Key: value`` records, or plain lines — with a word saying which.
A count a text *states* ("Total: 60 files") is never read here: a free-typed
number is not accounting. Pure: no I/O.
"""

from __future__ import annotations

import ast
import json
import re
from typing import Any

# Names an item array goes by, folded (``items``, ``Rows``, ``entries`` …), in preference order.
ITEM_FIELDS = ("items", "rows", "results", "data", "entries", "records", "result", "matches")

_LIST_LINE = re.compile(r"^\s*(?:\d+[.)]|[-*•+])\s+\S")
_TABLE_RULE = re.compile(r"^\s*\|?\s*:?-{3,}")
_SECTION = re.compile(r"^#{1,6}\s+\S")
_KEY_LINE = re.compile(r"^([A-Za-z][\w .-]{0,30}):\s*\S")
# A Python ``repr`` larger than this is not parsed: literal_eval is not for megabytes.
_LITERAL_MAX = 2_000_000


def folded(name: str) -> str:
    """``pageSize`` and ``page_size`` as one key: lower case, no separators but ``_``."""
    snake = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name)
    return snake.replace("-", "_").lower()


def flat(name: str) -> str:
    return folded(name).replace("_", "")


def pointer(*parts: object) -> str:
    """A JSON Pointer (RFC 6901) to ``parts``."""
    return "/" + "/".join(str(p).replace("~", "~0").replace("/", "~1") for p in parts)


def resolve(document: Any, where: str) -> tuple[bool, Any]:
    """(found, value) at JSON Pointer ``where`` in ``document``."""
    value = document
    for raw in where.split("/")[1:]:
        part = raw.replace("~1", "/").replace("~0", "~")
        if isinstance(value, dict) and part in value:
            value = value[part]
        elif isinstance(value, list) and part.isdigit() and int(part) < len(value):
            value = value[int(part)]
        else:
            return False, None
    return True, value


def largest_array(value: Any, path: tuple[object, ...]) -> tuple[list[Any], str] | None:
    """The item array of a structured result: a preferred name first, else the longest."""
    if isinstance(value, list):
        return value, pointer(*path)
    if not isinstance(value, dict):
        return None
    arrays = [(k, v) for k, v in value.items() if isinstance(v, list)]
    for name in ITEM_FIELDS:
        for key, array in arrays:
            if flat(key) == name:
                return array, pointer(*path, key)
    if arrays:
        key, array = max(arrays, key=lambda kv: len(kv[1]))
        return array, pointer(*path, key)
    for key, inner in value.items():
        if isinstance(inner, dict):
            nested = largest_array(inner, (*path, key))
            if nested is not None:
                return nested
    return None


def texts_of(raw: dict[str, Any]) -> list[str]:
    """The text blocks of a raw result, in order."""
    return [
        str(b.get("text", ""))
        for b in raw.get("content") or ()
        if isinstance(b, dict) and b.get("type") == "text"
    ]


def items_from_text(texts: list[str], blocks: int) -> tuple[list[Any], str]:
    """The items the text carries and how they were found (for evidence)."""
    if blocks > 1 and len(texts) > 1:
        return list(texts), f"text: {len(texts)} content blocks"
    text = "\n".join(texts).strip()
    if not text:
        return [], "text: empty"
    try:
        parsed = json.loads(text)
    except ValueError:
        parsed = _python_literal(text)
    if isinstance(parsed, list):
        return parsed, "text: an array (JSON or a Python literal)"
    if isinstance(parsed, dict):
        inner = largest_array(parsed, ())
        if inner is not None:
            return inner[0], f"text: JSON object, array at {inner[1]}"
        return ([parsed] if parsed else []), "text: one JSON object"
    lines = [line for line in text.splitlines() if line.strip()]
    listed = [line.strip() for line in lines if _LIST_LINE.match(line)]
    if listed:
        return listed, "text: numbered or bulleted lines"
    sections = [line.strip() for line in lines if _SECTION.match(line)]
    if len(sections) > 1:
        return sections, "text: headed sections"
    table = [line.strip() for line in lines if line.lstrip().startswith("|")]
    if len(table) > 2 and any(_TABLE_RULE.match(line) for line in table):
        rows = [line for line in table[1:] if not _TABLE_RULE.match(line)]
        return rows, "text: table rows"
    records = _records(lines)
    if records:
        return records, "text: records (repeated 'Key: value' blocks)"
    if len(lines) > 1 and lines[0].rstrip().endswith(":"):
        lines = lines[1:]  # a heading ("Allowed directories:") is not an item
    return [line.strip() for line in lines], "text: lines"


def _records(lines: list[str]) -> list[str]:
    """Records of ``Key: value`` lines (``Commit: …`` / ``Author: …`` / ``Message: …``),
    one per line carrying the first key, when that key repeats."""
    keyed = [(m.group(1), line) for line in lines if (m := _KEY_LINE.match(line))]
    if not keyed:
        return []
    first = keyed[0][0]
    starts = [line.strip() for key, line in keyed if key == first]
    return starts if len(starts) > 1 else []


def _python_literal(text: str) -> Any:
    """A Python ``repr`` of a list or dict (``[{'name': 'items'}]``), as some servers send."""
    if not text.startswith(("[", "{")) or len(text) > _LITERAL_MAX:
        return None
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return None
