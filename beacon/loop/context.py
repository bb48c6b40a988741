"""The project directory the planner needs to pass explicit ``project_id``s.

Context only, never evidence: nothing here is counted or cited. An older
upstream that attaches no structured content still prints its table, so the
table is read as a fallback — a presentation change there can cost the
planner its directory, never a wrong count.
"""

from __future__ import annotations

from typing import Any

MAX_PROJECTS = 200


def _from_items(result: dict[str, Any]) -> list[dict[str, str]] | None:
    structured = result.get("structuredContent")
    items = structured.get("items") if isinstance(structured, dict) else None
    if not isinstance(items, list):
        return None
    return [
        {"id": i["id"], "name": i["name"]}
        for i in items
        if isinstance(i, dict) and isinstance(i.get("id"), str) and isinstance(i.get("name"), str)
    ]


def _cells(line: str) -> list[str]:
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def _from_table(result: dict[str, Any]) -> list[dict[str, str]]:
    content = result.get("content")
    blocks = content if isinstance(content, list) else []
    for block in blocks:
        text = block.get("text") if isinstance(block, dict) else None
        if not isinstance(text, str):
            continue
        lines = [ln for ln in text.splitlines() if ln.strip().startswith("|")]
        if len(lines) < 2:
            continue
        header = [h.lower() for h in _cells(lines[0])]
        if "id" not in header or "name" not in header:
            continue
        id_at, name_at = header.index("id"), header.index("name")
        rows = [_cells(ln) for ln in lines[2:]]
        return [
            {"id": r[id_at], "name": r[name_at]}
            for r in rows
            if len(r) > max(id_at, name_at) and r[id_at] and r[name_at]
        ]
    return []


def project_directory(result: dict[str, Any]) -> list[dict[str, str]]:
    found = _from_items(result)
    return (found if found is not None else _from_table(result))[:MAX_PROJECTS]
