"""The loop's notice copy lives in ``beacon.lexicon.copy`` (locale data, one home).

These names are re-exported, not copied, for the modules that still import them from
here while their owners refactor them (answer, dispatch, narrowing_state, pages); new
code imports ``beacon.lexicon.copy``.
"""

from __future__ import annotations

from beacon.lexicon.copy import (
    ABSENCE,
    AXIS_NAMES,
    AXIS_OR,
    CATEGORY_LABEL,
    CATEGORY_REPLY,
    COMPANY_LABEL,
    COMPANY_REPLY,
    COUNTER_QUESTION,
    DATE_LABEL,
    DATE_REPLY,
    FAILURE,
    KIND_LABEL,
    KIND_NAMES,
    KIND_REPLY,
    LEVEL_LABEL,
    LEVEL_REPLY,
    NARROW_HINT,
    NOT_RUN,
    PAGE_CAP,
    STATUS_LABEL,
    STATUS_NAMES,
    STATUS_REPLY,
    STITCH_DISCARDED,
    say,
)

# The date-range axis names a month from the one table of month names.
from beacon.lexicon.months import MONTHS as MONTH_NAMES

__all__ = [
    "ABSENCE",
    "AXIS_NAMES",
    "AXIS_OR",
    "CATEGORY_LABEL",
    "CATEGORY_REPLY",
    "COMPANY_LABEL",
    "COMPANY_REPLY",
    "COUNTER_QUESTION",
    "DATE_LABEL",
    "DATE_REPLY",
    "FAILURE",
    "KIND_LABEL",
    "KIND_NAMES",
    "KIND_REPLY",
    "LEVEL_LABEL",
    "LEVEL_REPLY",
    "MONTH_NAMES",
    "NARROW_HINT",
    "NOT_RUN",
    "PAGE_CAP",
    "STATUS_LABEL",
    "STATUS_NAMES",
    "STATUS_REPLY",
    "STITCH_DISCARDED",
    "say",
]
