"""Pure verdicts over MCP ``CallToolResult`` dicts: no I/O, no globals.

Usable on their own by any Python chat server (SPEC §3).
"""

from beacon.adjudication.accounting import AccountingRecord, read_accounting
from beacon.adjudication.counts import (
    DEFAULT_SENTINEL,
    CountVerdict,
    Grade,
    grade_accounting,
    grade_count,
    sentinel_from_env,
)
from beacon.adjudication.emptiness import Emptiness, result_emptiness
from beacon.adjudication.errors import AdjudicationError, SlotError
from beacon.adjudication.failure import Fingerprint, fingerprint, is_in_band_failure
from beacon.adjudication.slots import (
    AuditEntry,
    SlotStream,
    SlotValue,
    render_narration,
)

__all__ = [
    "DEFAULT_SENTINEL",
    "AccountingRecord",
    "AdjudicationError",
    "AuditEntry",
    "CountVerdict",
    "Emptiness",
    "Fingerprint",
    "Grade",
    "SlotError",
    "SlotStream",
    "SlotValue",
    "fingerprint",
    "grade_accounting",
    "grade_count",
    "is_in_band_failure",
    "read_accounting",
    "render_narration",
    "result_emptiness",
    "sentinel_from_env",
]
