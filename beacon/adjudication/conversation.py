"""The asked set of a chat's follow-up: the earlier question's set, moved or narrowed.

"How many open findings are on level 3 of Harbor Tower?" — "And on level 4?" — "How
many of them are safety findings?": the last question names only "safety"; the set
it asks about is Harbor Tower's open safety findings on level 4. A planner that drops
what the conversation carries ("level 4", "inspector Dana Whitfield") counts an exact
number of another set, and the question alone could not tell: "exactly 28" of all
levels was stated as the answer, the same lie as a filter dropped from a single
question. So code reads the conversation as well as the question: each earlier
question in turn, a follow-up keeping the set before it and replacing only the axes
it names itself (lexicon/follow_up.py says which questions follow up). What a
follow-up carries is judged like what it names (constraints.judge_scope), and so is
what a planner adds beyond both (added.py).

A question with a record kind and a subject of its own starts a new set: nothing is
carried (the loop still settles its project). A follow-up's words no axis reads are
read against the record kind it carries ("And how many of them are overdue?").
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import date

from beacon.adjudication.constraints import (
    UNREAD,
    VIEW,
    Constraint,
    asked_records,
    read_constraints,
)
from beacon.lexicon.fields import ASK, SET_FIELDS, WHO
from beacon.lexicon.follow_up import CONTINUING, REFERS_BACK
from beacon.lexicon.shape import FORM_PIECES, PARTICLES
from beacon.lexicon.words import bounded, fold

_REFERS_BACK = re.compile(
    "|".join(bounded(re.escape(p)) for phrases in REFERS_BACK.values() for p in phrases)
)
_CONTINUING = frozenset(fold(w) for locale in ("en", "de", "es") for w in CONTINUING[locale])
# Korean and Japanese: the joining pieces, the form's pieces and the particles, longest first.
_CJK_JOINING = re.compile(
    "|".join(
        sorted(
            {re.escape(p) for loc in ("ko", "ja") for p in CONTINUING[loc] + FORM_PIECES[loc]}
            | {re.escape(p) for loc in ("ko", "ja") for p in PARTICLES[loc]},
            key=len,
            reverse=True,
        )
    )
)
_WORD = re.compile(r"\w+")
# "Which companies?", "Welche Firmen?", "Who?": a field asked of the set before it.
_FIELD_ASK = re.compile(
    "|".join(
        [bounded(ASK), WHO.pattern]
        + [bounded(noun) for nouns in SET_FIELDS.values() for noun in nouns]
    ),
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class Asked:
    """A question's asked set in its conversation: its constraints (carried ones first)
    and the records it counts, as the question that named them said it."""

    constraints: tuple[Constraint, ...]
    records: Constraint | None
    follows: bool = False  # a follow-up: part of its set is the conversation's


def asked_set(
    earlier: Sequence[str],
    question: str,
    *,
    projects: Iterable[Mapping[str, str]],
    today: date,
) -> Asked:
    """The set ``question`` asks about after the ``earlier`` questions of its chat
    (oldest first; none for a single question: then it is the question's own set)."""
    directory = tuple(projects)
    context: Asked | None = None
    for asked in earlier:
        context = _resolve(context, asked, directory, today)
    return _resolve(context, question, directory, today)


def on_view(constraints: Sequence[Constraint], level: int | None) -> tuple[Constraint, ...]:
    """ "this level" as the level the host's view shows; unread when it shows none (no
    tool can apply a level nobody named)."""
    value = str(level) if level is not None else UNREAD
    return tuple(replace(c, value=value) if c.value == VIEW else c for c in constraints)


def _resolve(
    context: Asked | None, question: str, projects: Sequence[Mapping[str, str]], today: date
) -> Asked:
    records = asked_records(question)
    own = read_constraints(question, projects=projects, today=today)
    if context is None or not follows_up(question, own):
        return Asked(own, records)
    carried = context.records
    if records is None and carried is not None:
        # Read again with the records it carries: its words no axis reads are leftovers.
        own = read_constraints(question, projects=projects, today=today, records=carried.value)
    named = {c.axis for c in own if not c.leftover}
    kept = tuple(c for c in context.constraints if c.leftover or c.axis not in named)
    return Asked((*kept, *own), records or carried, follows=True)


def follows_up(question: str, own: Sequence[Constraint]) -> bool:
    """Whether ``question`` continues the one before it: it points back at that set
    ("of them", "davon", "그중"), or it is made of nothing but what it changes, the words
    that join it on and a field it asks of that set ("And on level 4?", "Level 3", "Which
    companies?"). A record noun is none of those: "How many RFIs …" starts a new set."""
    if _REFERS_BACK.search(fold(question)):
        return True
    rest = unicodedata.normalize("NFKC", question)
    for constraint in own:
        rest = rest.replace(constraint.phrase, " ")
    # Only the words that join a changed part on: "Where is …" or "progress" is a subject.
    rest = _CJK_JOINING.sub(" ", _FIELD_ASK.sub(" ", rest))
    return all(fold(word) in _CONTINUING for word in _WORD.findall(rest))


__all__ = ["Asked", "asked_set", "follows_up", "on_view"]
