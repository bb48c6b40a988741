"""Pure verdicts over MCP ``CallToolResult`` dicts: no I/O, no globals.

Usable on their own by any Python chat server (SPEC §3)::

    from beacon.adjudication import grade_count, result_emptiness, is_in_band_failure, stitch_pages
"""

from beacon.adjudication.absence import (
    AbsenceCause,
    AbsenceVerdict,
    CallFacts,
    Recovery,
    absence_cause,
)
from beacon.adjudication.accounting import AccountingRecord, AggregateValue, read_accounting
from beacon.adjudication.anchors import Anchor, AnchorKind, call_anchors
from beacon.adjudication.counts import (
    DEFAULT_SENTINEL,
    Basis,
    CountVerdict,
    grade_accounting,
    grade_count,
    sentinel_from_env,
)
from beacon.adjudication.emptiness import Emptiness, result_emptiness
from beacon.adjudication.errors import AdjudicationError
from beacon.adjudication.failure import Fingerprint, fingerprint, is_in_band_failure
from beacon.adjudication.guard.counted import Counted
from beacon.adjudication.guard.judge import Drop, GuardedStream, judge
from beacon.adjudication.guard.markup import MARKUP_WINDOW, starts_with_protocol_markup
from beacon.adjudication.guard.slots import (
    AuditEntry,
    SlotStream,
    render_narration,
)
from beacon.adjudication.guard.standing import Standing, build_standing
from beacon.adjudication.narrowing import (
    PageShape,
    ViewListVerdict,
    apply_scope,
    grade_view_list,
    promote_complete,
    wants_aggregate,
)
from beacon.adjudication.stitch import Anomaly, StitchResult, stitch_pages, summarize_page
from beacon.adjudication.subset_gate import GATE_TABLE, GateEvent, GateRow, GateState, gate_step
from beacon.wire.accounting import PageSummary
from beacon.wire.audit import AuditKind, DropRule
from beacon.wire.frames import Grade

__all__ = [
    "DEFAULT_SENTINEL",
    "GATE_TABLE",
    "MARKUP_WINDOW",
    "AbsenceCause",
    "AbsenceVerdict",
    "AccountingRecord",
    "AdjudicationError",
    "AggregateValue",
    "Anchor",
    "AnchorKind",
    "Anomaly",
    "AuditEntry",
    "AuditKind",
    "Basis",
    "CallFacts",
    "CountVerdict",
    "Counted",
    "Drop",
    "DropRule",
    "Emptiness",
    "Fingerprint",
    "GateEvent",
    "GateRow",
    "GateState",
    "Grade",
    "GuardedStream",
    "PageShape",
    "PageSummary",
    "Recovery",
    "SlotStream",
    "Standing",
    "StitchResult",
    "ViewListVerdict",
    "absence_cause",
    "apply_scope",
    "build_standing",
    "call_anchors",
    "fingerprint",
    "gate_step",
    "grade_accounting",
    "grade_count",
    "grade_view_list",
    "is_in_band_failure",
    "judge",
    "promote_complete",
    "read_accounting",
    "render_narration",
    "result_emptiness",
    "sentinel_from_env",
    "starts_with_protocol_markup",
    "stitch_pages",
    "summarize_page",
    "wants_aggregate",
]
