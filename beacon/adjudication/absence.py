"""Why there is nothing to show, and what recovers from it.

The screen looks the same for every cause; the right sentence and the right
recovery do not. The order of the table is the argument: a call that never
went out (denied) says nothing about data; a refused bearer is not "no data";
a failure is not an absence; only an accounted empty result is, and then our
own record of having narrowed decides between "not among those" and "none".
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from beacon.adjudication.emptiness import Emptiness


class AbsenceCause(StrEnum):
    PERMISSION_DENIED = "permission_denied"
    AUTH_FAILURE = "auth_failure"
    UPSTREAM_FAILURE = "upstream_failure"
    ZERO_AFTER_NARROWING = "zero_after_narrowing"
    ZERO_FROM_START = "zero_from_start"
    NO_STANDING = "no_standing"  # nothing came back, but nothing grounds "none" either


class Recovery(StrEnum):
    REQUEST_ACCESS = "request_access"
    REAUTHENTICATE = "reauthenticate"
    RETRY_LATER = "retry_later"
    RELEASE_NARROWING = "release_narrowing"
    NONE = "none"


RECOVERY: dict[AbsenceCause, Recovery] = {
    AbsenceCause.PERMISSION_DENIED: Recovery.REQUEST_ACCESS,
    AbsenceCause.AUTH_FAILURE: Recovery.REAUTHENTICATE,
    AbsenceCause.UPSTREAM_FAILURE: Recovery.RETRY_LATER,
    AbsenceCause.ZERO_AFTER_NARROWING: Recovery.RELEASE_NARROWING,
    AbsenceCause.ZERO_FROM_START: Recovery.NONE,
    AbsenceCause.NO_STANDING: Recovery.NONE,
}


@dataclass(frozen=True, slots=True)
class AbsenceVerdict:
    cause: AbsenceCause
    recovery: Recovery
    may_say_none: bool  # only an accounted empty result grounds "there are none"


@dataclass(frozen=True, slots=True)
class CallFacts:
    emptiness: Emptiness
    denied: bool = False
    transport_status: int = 200
    failed: bool = False
    narrowed: bool = False


def absence_cause(facts: CallFacts) -> AbsenceVerdict | None:
    """None when there is something to show (non_empty)."""
    if facts.denied:
        cause = AbsenceCause.PERMISSION_DENIED
    elif facts.transport_status in (401, 403):
        cause = AbsenceCause.AUTH_FAILURE
    elif facts.failed or facts.transport_status != 200:
        cause = AbsenceCause.UPSTREAM_FAILURE
    elif facts.emptiness == "non_empty":
        return None
    elif facts.emptiness == "empty":
        cause = (
            AbsenceCause.ZERO_AFTER_NARROWING if facts.narrowed else AbsenceCause.ZERO_FROM_START
        )
    else:
        cause = AbsenceCause.NO_STANDING
    may_say_none = cause in (AbsenceCause.ZERO_FROM_START, AbsenceCause.ZERO_AFTER_NARROWING)
    return AbsenceVerdict(cause, RECOVERY[cause], may_say_none)
