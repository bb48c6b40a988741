"""Narration anchors: what code learned, told to the model as instructions.

An anchor never carries the sentence the user reads for a count: it hands
the model a slot and the phrasing rule, and the server renders the slot.
Population and returned subset get separate anchors, so they never share a
subject in one sentence.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from beacon.adjudication.absence import AbsenceCause, AbsenceVerdict
from beacon.adjudication.counts import CountVerdict
from beacon.wire.frames import Grade


class AnchorKind(StrEnum):
    EXACT_COUNT = "exact_count"
    LOWER_BOUND = "lower_bound"
    SHOWN_SUBSET = "shown_subset"
    UNKNOWN_COUNT = "unknown_count"
    EMPTY_WITH_STANDING = "empty_with_standing"
    ABSENCE_PERMISSION = "absence_permission_denied"
    ABSENCE_AUTH = "absence_auth_failure"
    ABSENCE_ZERO_AFTER_NARROWING = "absence_zero_after_narrowing"
    ABSENCE_ZERO_FROM_START = "absence_zero_from_start"
    IN_BAND_FAILURE = "in_band_failure"
    NARROWING_RELEASED = "narrowing_released"
    STITCH_DISCARDED = "stitch_discarded"
    COUNTER_QUESTION = "counter_question"
    VIEW_LIST_TRUNCATED = "view_list_truncated"
    ENUMERATION = "enumeration"


@dataclass(frozen=True, slots=True)
class Anchor:
    kind: AnchorKind
    instruction: str
    slot: str | None = None
    facts: dict[str, Any] = field(default_factory=dict)

    def record(self) -> dict[str, Any]:
        return {
            "kind": self.kind.value,
            "slot": self.slot,
            "instruction": self.instruction,
            **self.facts,
        }


def exact_count(slot: str, subject: str) -> Anchor:
    return Anchor(
        AnchorKind.EXACT_COUNT,
        f"The count of {subject} is exact: write {{{{count:{slot}}}}} where it belongs.",
        slot,
        {"subject": subject},
    )


def lower_bound(slot: str, subject: str) -> Anchor:
    return Anchor(
        AnchorKind.LOWER_BOUND,
        f"Only a lower bound is known for {subject}: write {{{{count:{slot}}}}} (it "
        "reads 'at least N'); never call it exact, complete or all.",
        slot,
        {"subject": subject},
    )


def shown_subset(slot: str) -> Anchor:
    return Anchor(
        AnchorKind.SHOWN_SUBSET,
        f"In a separate sentence whose subject is the returned examples, write "
        f"{{{{shown:{slot}}}}} (e.g. 'These {{{{shown:{slot}}}}} are shown'); never "
        "describe the whole population in that sentence.",
        slot,
    )


def unknown_count(slot: str | None, subject: str) -> Anchor:
    return Anchor(
        AnchorKind.UNKNOWN_COUNT,
        f"The source did not say how many {subject} there are: utter no number for "
        "it at all, and do not guess.",
        slot,
        {"subject": subject},
    )


def empty_with_standing(slot: str, subject: str) -> Anchor:
    return Anchor(
        AnchorKind.EMPTY_WITH_STANDING,
        f"The source searched and accounted for its result: there are no {subject}. "
        "You may say so plainly.",
        slot,
        {"subject": subject},
    )


_ABSENCE: dict[AbsenceCause, tuple[AnchorKind, str]] = {
    AbsenceCause.PERMISSION_DENIED: (
        AnchorKind.ABSENCE_PERMISSION,
        "The call was not made: a notice card explains why. Do not restate it and do not say "
        "the data is missing.",
    ),
    AbsenceCause.AUTH_FAILURE: (
        AnchorKind.ABSENCE_AUTH,
        "The source refused the sign-in: say authentication failed; never say there is no data.",
    ),
    AbsenceCause.ZERO_AFTER_NARROWING: (
        AnchorKind.ABSENCE_ZERO_AFTER_NARROWING,
        "Nothing matched within the narrowed scope: say it is not among the previous results "
        "and offer to search the whole project.",
    ),
    AbsenceCause.ZERO_FROM_START: (
        AnchorKind.ABSENCE_ZERO_FROM_START,
        "Nothing matched in the whole scope: you may say the project has no such data.",
    ),
}


def absence(slot: str | None, verdict: AbsenceVerdict) -> Anchor:
    if verdict.cause is AbsenceCause.UPSTREAM_FAILURE:
        return in_band_failure(slot, "the source")
    if verdict.cause is AbsenceCause.NO_STANDING:
        return unknown_count(slot, "results")
    kind, text = _ABSENCE[verdict.cause]
    return Anchor(kind, text, slot, {"recovery": verdict.recovery.value})


def in_band_failure(slot: str | None, source: str) -> Anchor:
    return Anchor(
        AnchorKind.IN_BAND_FAILURE,
        f"{source} did not return a usable result: say it failed; state no count and no absence.",
        slot,
        {"source": source},
    )


def narrowing_released() -> Anchor:
    return Anchor(
        AnchorKind.NARROWING_RELEASED,
        "The narrowing has been released: the next search covers everything. Say so; "
        "do not re-run the search inside this turn.",
    )


def stitch_discarded(slot: str, anomalies: Sequence[str]) -> Anchor:
    return Anchor(
        AnchorKind.STITCH_DISCARDED,
        "Later pages disagreed with the first (the data moved while paging): answer "
        "from the first page only and say so.",
        slot,
        {"anomalies": list(anomalies)},
    )


def counter_question(axes: Sequence[str], recommended: str | None) -> Anchor:
    if len(axes) == 1:
        text = f"Ask one short question to narrow by {axes[0]}; promise no counts."
    else:
        text = (
            f"Offer to narrow by one of: {', '.join(axes)}; recommend {recommended}. "
            "Promise no counts you have not retrieved."
        )
    return Anchor(
        AnchorKind.COUNTER_QUESTION, text, None, {"axes": list(axes), "recommended": recommended}
    )


def view_list_truncated(length_slot: str) -> Anchor:
    return Anchor(
        AnchorKind.VIEW_LIST_TRUNCATED,
        f"The on-screen list may be truncated: speak of {{{{shown:{length_slot}}}}} "
        "as what is shown, never as all.",
        length_slot,
    )


def enumeration(
    slot: str,
    field: str,
    members: Sequence[str],
    *,
    complete: bool,
    relation: str,
    extreme: str | None = None,
    leaders: Sequence[str] = (),
) -> Anchor:
    scope = "every matching record" if complete else "the records returned (not all of them)"
    instruction = (
        f"The {field} values below were read from a field of {scope}: describe "
        "them all, do not rank or trim them, and say only where they appear "
        f"({relation})"
    )
    if extreme is not None:
        # Code found the leader (ties kept) or the date's end, from every record; a
        # sample settles neither, and then there are no leaders to name.
        instruction = (
            f"Code read the {extreme} {field} from a field of {scope}: name the leaders "
            "below (all of them: a tie is a tie), state no tally"
            if leaders
            else f"The records returned do not settle the {extreme} {field}: say so"
        )
    fields: dict[str, object] = {
        "field": field,
        "members": list(members),
        "complete": complete,
        "relation": relation,
    }
    if extreme is not None:
        fields |= {"extreme": extreme, "leaders": list(leaders)}
    return Anchor(AnchorKind.ENUMERATION, instruction + ".", slot, fields)


def count_anchors(slot: str, subject: str, verdict: CountVerdict, *, shown: int) -> list[Anchor]:
    """The population anchor for a counted result, then the subset one."""
    if verdict.grade is Grade.EXACT and verdict.value == 0:
        return [empty_with_standing(slot, subject)]
    population = {
        Grade.EXACT: exact_count,
        Grade.LOWER_BOUND: lower_bound,
        Grade.SHOWN: None,
        Grade.UNKNOWN: unknown_count,
    }[verdict.grade]
    anchors = [population(slot, subject)] if population is not None else []
    # The shown examples are a subset worth a sentence only when they are fewer than the
    # set: every record of an exact set on screen is the set, said once by its count.
    if verdict.grade is not Grade.UNKNOWN and shown > 0 and not verdict.wholly_shown(shown):
        anchors.append(shown_subset(slot))
    return anchors


def call_anchors(
    slot: str,
    subject: str,
    verdict: CountVerdict,
    absence_verdict: AbsenceVerdict | None,
    *,
    shown: int,
) -> list[Anchor]:
    """Every anchor one tool call earns: an absence by its cause, else its counts."""
    if absence_verdict is not None:
        return [absence(slot, absence_verdict)]
    return count_anchors(slot, subject, verdict, shown=shown)
