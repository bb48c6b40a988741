"""The verdicts: one tool's calls → findings from the fixed vocabulary. Pure, no I/O.

Every code is ``fail`` except ``cap-saturation`` on one signal alone (a round
total, or the same total for different queries), which is ``warn``; ``no-accounting``
is ``warn`` when fewer items came back than the size allowed (issue 28).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from harness.audit_upstream.classify import Kind
from harness.audit_upstream.probes import Call, ToolRecord

ROUND_CAP = 100  # a cap is a multiple of this


class Code(StrEnum):
    NO_ACCOUNTING = "no-accounting"
    PAGE_LABELLED_TOTAL = "page-labelled-total"
    CAP_SATURATION = "cap-saturation"
    LIMIT_IGNORED = "limit-ignored"
    CURSOR_UNPINNED = "cursor-unpinned"
    ERROR_AS_RESULT = "error-as-result"
    SCHEMA_VIOLATION = "schema-violation"
    EMPTY_WITHOUT_ACCOUNTING = "empty-without-accounting"


class Severity(StrEnum):
    FAIL = "fail"
    WARN = "warn"


@dataclass(frozen=True, slots=True)
class Finding:
    code: Code
    severity: Severity
    evidence: dict[str, Any]

    def as_json(self) -> dict[str, Any]:
        return {"code": self.code.value, "severity": self.severity.value, "evidence": self.evidence}


def call_evidence(call: Call) -> dict[str, Any]:
    shown: dict[str, Any] = {"purpose": call.purpose, "arguments": _short(call.arguments)}
    if call.rpc_error is not None:
        shown["rpc_error"] = call.rpc_error
    reading = call.reading
    if reading is not None:
        shown["items"] = reading.items
        shown["items_from"] = reading.source
        shown["fields"] = reading.fields_seen()
        if reading.is_error:
            shown["isError"] = True
    return shown


def _short(arguments: dict[str, Any]) -> dict[str, Any]:
    return {
        k: (v[:40] + "…" if isinstance(v, str) and len(v) > 41 else v) for k, v in arguments.items()
    }


def _requested(call: Call, record: ToolRecord) -> int | None:
    size = record.plan.size_arg
    if size is None:
        return None
    asked = call.arguments.get(size.name)
    return asked if isinstance(asked, int) else record.plan.default_size


def _exact_total(call: Call) -> int | None:
    reading = call.reading
    if reading is None or reading.total is None:
        return None
    value = reading.total.value
    return value if isinstance(value, int) else None


def _schema_violation(record: ToolRecord) -> list[Finding]:
    broken = [c for c in record.calls if c.reading is not None and c.reading.schema_errors]
    if not broken:
        return []
    first = broken[0]
    assert first.reading is not None
    evidence = {**call_evidence(first), "errors": list(first.reading.schema_errors)}
    evidence["calls_affected"] = f"{len(broken)} of {len(record.calls)}"
    return [Finding(Code.SCHEMA_VIOLATION, Severity.FAIL, evidence)]


def _error_as_result(record: ToolRecord) -> list[Finding]:
    for call in record.calls:
        reading = call.reading
        if reading is None or reading.is_error:
            continue
        why = reading.error_text or (
            "the text {} with no structured content" if reading.empty_object else None
        )
        if why is not None:
            evidence = {**call_evidence(call), "isError": False, "text_reads": why}
            return [Finding(Code.ERROR_AS_RESULT, Severity.FAIL, evidence)]
    return []


def _disguised(call: Call) -> bool:
    reading = call.reading
    return reading is not None and (reading.error_text is not None or reading.empty_object)


def _no_accounting(record: ToolRecord) -> list[Finding]:
    bare = [
        c
        for c in record.calls
        if c.answered
        and c.items > 0
        and not _disguised(c)
        and c.reading is not None
        and not c.reading.accounted
    ]
    full = [c for c in bare if _requested(c, record) == c.items]
    if full:
        evidence = {
            **call_evidence(full[0]),
            "why": "a full page (as many items as the size asked or its default) with no "
            "total, lower bound or has-more anywhere: possibly silently truncated",
        }
        if full[0].reading is not None and full[0].reading.next_cursor is not None:
            evidence["note"] = "a next cursor alone is not accounting"
        return [Finding(Code.NO_ACCOUNTING, Severity.FAIL, evidence)]
    several = [c for c in bare if c.items > 1]
    if several:
        call = max(several, key=lambda c: c.items)
        evidence = {
            **call_evidence(call),
            "why": "several items with no total, lower bound or has-more anywhere "
            "(fewer than the size allowed)",
        }
        return [Finding(Code.NO_ACCOUNTING, Severity.WARN, evidence)]
    return []


def _empty_without_accounting(record: ToolRecord) -> list[Finding]:
    for call in record.calls:
        reading = call.reading
        if (
            call.answered
            and reading is not None
            and reading.items == 0
            and not (reading.accounted or _disguised(call))
        ):
            evidence = {
                **call_evidence(call),
                "why": "zero items and no accounting: indistinguishable from a failure",
            }
            return [Finding(Code.EMPTY_WITHOUT_ACCOUNTING, Severity.FAIL, evidence)]
    return []


def _limit_ignored(record: ToolRecord) -> list[Finding]:
    for call in record.calls:
        asked = _requested(call, record) if call.purpose == "small" else None
        if asked is not None and call.answered and call.items > asked:
            evidence = {**call_evidence(call), "asked": asked, "got": call.items}
            return [Finding(Code.LIMIT_IGNORED, Severity.FAIL, evidence)]
    return []


def _more_exists(call: Call, record: ToolRecord) -> bool:
    reading = call.reading
    if reading is not None and reading.more is True:
        return True
    # The same query with a larger page returned more than this page held.
    others = [
        c.items
        for c in record.calls
        if c.answered and c.purpose == "variant" and _same_query(c, call, record)
    ]
    return any(n > call.items for n in others)


def _same_query(a: Call, b: Call, record: ToolRecord) -> bool:
    paging = {
        x.name
        for x in (record.plan.size_arg, record.plan.cursor_arg, record.plan.offset_arg)
        if x is not None
    }

    def core(c: Call) -> dict[str, Any]:
        return {k: v for k, v in c.arguments.items() if k not in paging}

    return core(a) == core(b)


def _page_labelled_total(record: ToolRecord) -> list[Finding]:
    for call in record.calls:
        total = _exact_total(call)
        if (
            call.answered
            and total is not None
            and total == call.items
            and _more_exists(call, record)
        ):
            evidence = {
                **call_evidence(call),
                "why": f"the total ({total}) equals the page length while more items exist",
            }
            return [Finding(Code.PAGE_LABELLED_TOTAL, Severity.FAIL, evidence)]
    return []


def _cap_saturation(record: ToolRecord) -> list[Finding]:
    """A set that stops at a round cap: the total pinned there or the last page full."""
    by_total: dict[int, list[Call]] = {}
    for call in record.calls:
        total = _exact_total(call)
        reading = call.reading
        if not call.answered or reading is None or total is None or total == 0:
            continue
        if reading.lower_bound is not None:
            continue  # a floor claims no completion
        if call.purpose == "variant" and reading.more is not True and call.items == total:
            by_total.setdefault(total, []).append(call)  # the whole set in one full page
        elif call.purpose == "variant" and reading.more is True:
            by_total.setdefault(total, []).append(call)
    walk = record.walk()
    if walk and record.walk_complete:
        last_total = _exact_total(walk[-1])
        seen = sum(c.items for c in walk)
        if last_total is not None and seen == last_total:
            by_total.setdefault(last_total, [])
    for total, calls in sorted(by_total.items(), reverse=True):
        round_cap = total % ROUND_CAP == 0
        # Different queries that found different sets yet the same total: a cap, not a
        # coincidence of two phrasings of one question (those return one set).
        sets = {frozenset(c.reading.keys) for c in calls if c.reading is not None}
        pinned = len(sets) > 1 and total >= 10
        if not (round_cap or pinned):
            continue
        if (
            round_cap
            and not pinned
            and all(c.reading is not None and c.reading.more is True for c in calls)
        ):
            continue  # a round total with more to come: the walk has not shown it stops there
        severity = Severity.FAIL if round_cap and pinned else Severity.WARN
        evidence = {
            "total": total,
            "round_cap": round_cap,
            "same_total_for_different_queries": pinned,
            "calls": [call_evidence(c) for c in calls[:4]],
            "why": "the set stops at a round cap with has-more false or a total pinned there: "
            "a possible false completion",
        }
        return [Finding(Code.CAP_SATURATION, severity, evidence)]
    return []


def _cursor_unpinned(record: ToolRecord) -> list[Finding]:
    walk = record.walk()
    seen: set[str] = set()
    totals: list[Any] = []
    for number, call in enumerate(walk, start=1):
        reading = call.reading
        if reading is None:
            break
        repeated = seen & set(reading.keys)
        if repeated and number > 1:
            evidence = {
                "page": number,
                "repeated_ids": sorted(repeated)[:5],
                "calls": [call_evidence(c) for c in walk[:number]][-2:],
                "why": "a later page repeats items of an earlier page of the same query",
            }
            return [Finding(Code.CURSOR_UNPINNED, Severity.FAIL, evidence)]
        seen |= set(reading.keys)
        count = reading.total or reading.lower_bound
        if count is not None:
            totals.append(count.value)
        if len(set(map(repr, totals))) > 1:
            evidence = {
                "page": number,
                "totals": totals,
                "calls": [call_evidence(c) for c in walk[:number]][-2:],
                "why": "the total moved between pages of one query",
            }
            return [Finding(Code.CURSOR_UNPINNED, Severity.FAIL, evidence)]
    return []


JUDGES = (
    _no_accounting,
    _page_labelled_total,
    _cap_saturation,
    _limit_ignored,
    _cursor_unpinned,
    _error_as_result,
    _schema_violation,
    _empty_without_accounting,
)


def judge(record: ToolRecord) -> list[Finding]:
    """The findings of one tool; a lookup or a skipped tool has none."""
    if record.kind not in (Kind.LIST, Kind.SEARCH):
        return []
    return [finding for check in JUDGES for finding in check(record)]
