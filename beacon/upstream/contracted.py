"""An MCP upstream Beacon did not write, seen through its declared contract.

The contract (beacon/wire/contract.py) says where each tool's items, total,
lower bound, has-more flag and cursor live in its raw result. Each result is
rewritten here, at the trust boundary, into the one shape the rest of Beacon
reads — items under ``items``/``rows`` and, only where the upstream really
accounts for its set, Beacon's accounting envelope written through its wire
model — so adjudication grades a foreign upstream by the same rules as the stub:

- a total where the contract says → EXACT (a total at the contract's page cap is
  only a lower bound: the set stops there however large the truth);
- a lower bound, or has-more true with no total → LOWER_BOUND;
- has-more false and no total → the page is the set (EXACT), unless it is at the cap;
- no accounting at all → items but no envelope: a real result whose count is UNKNOWN;
- the items missing where the contract promised them → no structure at all, so the
  absence of a result envelope reads as the in-band failure it is;
- ``isError`` stays an error; a count stated in prose is never read (free-typed).

Arguments the deployment fixes are sent as the contract writes them, whatever the
model asked, and are not in the catalog the model sees.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import replace
from typing import Any

from pydantic import ValidationError

from beacon.upstream.errors import UpstreamProtocolError
from beacon.upstream.items import items_from_text, largest_array, resolve, texts_of
from beacon.upstream.mcp_client import McpUpstream, ToolOutcome
from beacon.wire.accounting import Accounting
from beacon.wire.contract import ContractTool, UpstreamContract


def _count(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


def _at(raw: dict[str, Any], where: str | None) -> Any:
    """The value at a pointer the contract names (a "text" location is never a field)."""
    if where is None or not where.startswith("/"):
        return None
    found, value = resolve(raw, where)
    return value if found else None


def _items(raw: dict[str, Any], where: str | None) -> list[Any] | None:
    """The result's items where the contract says; None when they are not there."""
    if where == "text":
        return items_from_text(texts_of(raw), len(raw.get("content") or ()))[0]
    if where is not None:
        value = _at(raw, where)
        return value if isinstance(value, list) else None
    # The audit saw no item: an array of the structured content, else the text's items.
    structured = raw.get("structuredContent")
    found = largest_array(structured, ("structuredContent",)) if structured else None
    if found is not None:
        return found[0]
    return items_from_text(texts_of(raw), len(raw.get("content") or ()))[0]


def _envelope(raw: dict[str, Any], tool: ContractTool, returned: int) -> dict[str, Any] | None:
    """The accounting the upstream gives, as Beacon's envelope fields; None: it gives none."""
    total = _count(_at(raw, tool.total))
    bound = _count(_at(raw, tool.total_lower_bound))
    flag = _at(raw, tool.has_more)
    more = flag if isinstance(flag, bool) else None
    cursor = _at(raw, tool.cursor)
    cursor = cursor if isinstance(cursor, str) and cursor else None
    if total is None and bound is None:
        if more is False and cursor is None:
            total = returned  # the upstream says this page is all there is
        elif more is True:
            bound = returned  # more exist: at least what came
        else:
            return None  # a cursor alone says nothing of how many
    if total is not None and tool.page_cap is not None and total >= tool.page_cap:
        # A set that stops at the upstream's cap: "3000" means "at least 3000".
        total, bound = None, total
    population = total if total is not None else bound
    assert population is not None
    fields: dict[str, Any] = {
        "result_kind": tool.result_kind,
        "returned": returned,
        "has_more": more if more is not None else (cursor is not None or population > returned),
        "cursor": cursor,
        **({"total": total} if total is not None else {"total_lower_bound": bound}),
    }
    try:
        # Written through the wire model, as the stub writes its own.
        return Accounting.model_validate(fields).model_dump(exclude_none=True)
    except ValidationError:
        return None


def _blocks(raw: dict[str, Any]) -> list[dict[str, Any]]:
    """The content blocks without the upstream's own ``_meta``: only Beacon writes an
    envelope, so a foreign ``_meta`` can neither pass as one nor clear a failure."""
    content = raw.get("content")
    if not isinstance(content, list):
        return []
    return [{k: v for k, v in b.items() if k != "_meta"} for b in content if isinstance(b, dict)]


def adapt(raw: dict[str, Any], tool: ContractTool) -> dict[str, Any]:
    """A raw result of a contract-described tool in the shape Beacon adjudicates."""
    blocks = _blocks(raw)
    if raw.get("isError") is True:
        return {"content": blocks, "isError": True}
    if tool.result_kind is None:
        # A lookup's answer is its own: prose, or its structured record as text.
        structured = raw.get("structuredContent")
        if not blocks and structured is not None:
            blocks = [{"type": "text", "text": json.dumps(structured, ensure_ascii=False)}]
        return {"content": blocks, "isError": False}
    items = _items(raw, tool.items)
    if items is None:
        return {"content": blocks, "isError": False}
    key = "items" if tool.result_kind == "search" else "rows"
    envelope = _envelope(raw, tool, len(items))
    return {
        "content": blocks,
        "isError": False,
        "structuredContent": {**(envelope or {}), key: items},
    }


def _catalog_entry(listed: dict[str, Any], fixed: dict[str, Any]) -> dict[str, Any]:
    """A listed tool as the model sees it: the arguments the deployment fixes removed."""
    if not fixed:
        return listed
    schema = dict(listed.get("inputSchema") or {})
    schema["properties"] = {
        k: v for k, v in (schema.get("properties") or {}).items() if k not in fixed
    }
    schema["required"] = [k for k in schema.get("required") or () if k not in fixed]
    return {**listed, "inputSchema": schema}


class ContractedUpstream:
    """``McpUpstream``'s interface, through a contract: only the tools it fronts (and
    not disabled by a drift) are listed or called, and every result is adapted."""

    def __init__(
        self,
        inner: McpUpstream,
        contract: UpstreamContract,
        disabled: frozenset[str] = frozenset(),
    ) -> None:
        self._inner = inner
        self._tools = {
            name: tool
            for name, tool in contract.tools.items()
            if tool.fronted and name not in disabled
        }

    def next_call_written(self) -> asyncio.Future[None]:
        return self._inner.next_call_written()

    async def list_tools(self) -> list[dict[str, Any]]:
        return [
            _catalog_entry(listed, self._tools[listed["name"]].fixed_arguments)
            for listed in await self._inner.list_tools()
            if listed.get("name") in self._tools
        ]

    async def call_tool(self, tool: str, arguments: dict[str, Any]) -> ToolOutcome:
        entry = self._tools.get(tool)
        if entry is None:
            # The PEP blocks a tool the table lacks before this; never send it anyway.
            raise UpstreamProtocolError(f"{tool!r} is not a tool the upstream contract fronts")
        sent = {**arguments, **entry.fixed_arguments}
        outcome = await self._inner.call_tool(tool, sent)
        return replace(outcome, result=adapt(outcome.result, entry))
