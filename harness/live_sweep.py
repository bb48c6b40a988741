"""The sweep against a live upstream: the boundaries that pin what an MCP server sends,
checked over streamable HTTP instead of against the stub in-process.

Which rows: every ``stub-tool-result`` row without a fault mode (the tool results'
envelope fields, and the sentinel row, whose saturated total must equal ours), the
tool list rows (``TOOL_LIST_ROWS``) and the cursor row (``CURSOR_ROW``: a search's
pages, followed by their cursors, must stitch by Beacon's own stitcher). The fault
rows stay in-process: a live upstream cannot be asked to fail on cue. The failure
this exists for is an upstream that raises its cap while Beacon's sentinel stays:
saturated totals then read as exact ones, and nothing in the tree changed for the
in-process sweep to see.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import anyio

from beacon.adjudication.accounting import read_accounting
from beacon.adjudication.counts import sentinel_from_env
from beacon.adjudication.stitch import DEFAULT_PAGE_CAP, VOIDING, stitch_pages
from boundaries import Boundary, load_registry
from harness.audit_upstream.client import Target, Upstream, connect
from harness.checks.base import CheckContext
from harness.checks.wire import judge_tool_result, pinned_value
from harness.refs import CheckFailed

SWEEP_DIR = "reports/sweep"
UPSTREAM_RECORD = "upstream.json"
# Tool list rows and how the listed names must relate to the pinned names: the
# capability map covers exactly the upstream's tools; the contracted tools are among them.
TOOL_LIST_ROWS: dict[str, str] = {
    "mirror:tool-capability-map": "exact",
    "mirror:result-contract-tools": "subset",
}
CURSOR_ROW = "seam:stub-pages>stitcher"
# A search with more than one page in the stub's corpus (the rows' arguments name it too).
CURSOR_WALK: tuple[str, dict[str, Any]] = (
    "search_photos",
    {"project_id": "prj-harbor-tower", "query": "rebar", "limit": 5},
)
# A deployment may configure its sentinel (BEACON_ROW_CAP_SENTINEL): the live upstream
# is held to the value this Beacon runs with, not to the default it ships with.
CONFIGURED: dict[str, Callable[[], Any]] = {
    "beacon.adjudication.counts:DEFAULT_SENTINEL": sentinel_from_env,
}


@dataclass(frozen=True, slots=True)
class LiveVerdict:
    id: str
    verdict: str  # pass | drift
    field: str | None
    message: str | None

    def line(self) -> str:
        return f"drift: {self.id}: {self.field}: {self.message}"


def live_rows(boundaries: tuple[Boundary, ...] | list[Boundary]) -> list[Boundary]:
    return [
        b
        for b in boundaries
        if b.id in TOOL_LIST_ROWS
        or b.id == CURSOR_ROW
        or (b.check.get("type") == "stub-tool-result" and b.check.get("mode", "ok") == "ok")
    ]


def held_to(ref: str, field: str) -> Any:
    return CONFIGURED[ref]() if ref in CONFIGURED else pinned_value(ref, field)


def judge_tool_list(boundary: Boundary, listed: set[str]) -> None:
    pinned = boundary.check.get("equals")
    names = set(pinned) if isinstance(pinned, dict | list) else set()
    missing, extra = sorted(names - listed), sorted(listed - names)
    if missing:
        raise CheckFailed("check.equals", f"the upstream no longer lists {', '.join(missing)}")
    if extra and TOOL_LIST_ROWS[boundary.id] == "exact":
        raise CheckFailed("check.equals", f"the upstream lists tools we do not map: {extra}")


async def judge_cursor_walk(upstream: Upstream) -> None:
    """Follow the search's cursors up to the page cap; the pages must stitch cleanly."""
    tool, arguments = CURSOR_WALK
    pages: list[dict[str, Any]] = []
    cursor: str | None = None
    while len(pages) < DEFAULT_PAGE_CAP and (cursor is not None or not pages):
        answer = await upstream.call(tool, {**arguments, **({"cursor": cursor} if cursor else {})})
        if answer.result is None:
            raise CheckFailed("check.cursor", f"page {len(pages) + 1}: {answer.rpc_error}")
        pages.append(answer.result)
        acct = read_accounting(answer.result)
        cursor = acct.cursor if acct is not None and acct.has_more else None
    if len(pages) < 2:
        raise CheckFailed("check.cursor", f"{tool} answered one page: no cursor to follow")
    stitched = stitch_pages(pages)
    voiding = sorted(a.value for a in stitched.anomalies if a in VOIDING)
    if voiding:
        raise CheckFailed("check.cursor", f"{len(pages)} pages do not stitch: {voiding}")


async def _judge(boundary: Boundary, upstream: Upstream, listed: set[str], root: Path) -> None:
    if boundary.id in TOOL_LIST_ROWS:
        judge_tool_list(boundary, listed)
        return
    if boundary.id == CURSOR_ROW:
        await judge_cursor_walk(upstream)
        return
    tool = str(boundary.check["tool"])
    answer = await upstream.call(tool, dict(boundary.check.get("arguments", {})))
    if answer.result is None:
        raise CheckFailed("check.tool", f"{tool} answered {answer.rpc_error}")
    judge_tool_result(answer.result, boundary.check, CheckContext(root, boundary.id), held_to)


async def sweep_upstream(root: Path, target: Target) -> list[LiveVerdict]:
    """One verdict per live row; ``TargetUnavailable`` if the upstream cannot be had."""
    rows = live_rows(load_registry(root).boundaries)
    verdicts = []
    async with connect(target) as upstream:
        tools, _pages = await upstream.list_tools()
        listed = {str(t.get("name")) for t in tools}
        for boundary in sorted(rows, key=lambda b: b.id):
            try:
                await _judge(boundary, upstream, listed, root)
                verdicts.append(LiveVerdict(boundary.id, "pass", None, None))
            except CheckFailed as exc:
                verdicts.append(LiveVerdict(boundary.id, "drift", exc.field, exc.message))
    return verdicts


def run_live_sweep(root: Path, target: Target) -> dict[str, Any]:
    """The record of one live sweep (not yet written)."""
    started = time.perf_counter()
    verdicts = anyio.run(sweep_upstream, root.resolve(), target)
    return record_of(target.label, verdicts, round(time.perf_counter() - started, 3))


def record_of(upstream: str, verdicts: list[LiveVerdict], seconds: float) -> dict[str, Any]:
    drift = [v for v in verdicts if v.verdict != "pass"]
    return {
        "upstream": upstream,
        "swept_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "wall_seconds": seconds,
        "ok": not drift,
        "count": len(verdicts),
        "drift": [v.line() for v in drift],
        "boundaries": [asdict(v) for v in verdicts],
    }


def write_json(path: Path, data: Mapping[str, Any]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    return path
