"""Narrowing: the scope is dispatch's, and a complete narrowed page is exact.

The model may propose arguments, but the scope built from turn state is
spread *last*, so no model argument can widen what the user narrowed. When a
narrowed scope comes back as one page with nothing beyond it and no floor,
the cards are the complete set: SHOWN (or a bound) is promoted to EXACT.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from beacon.adjudication.counts import Basis, CountVerdict
from beacon.lexicon.words import HOW_MANY_PATTERNS
from beacon.wire.frames import Grade
from beacon.wire.tools import tool_spec

# "How many …?" per locale, as data (beacon.lexicon, with the other locale words): a
# count question is answered by a single-value aggregate (SPEC §3). Matched on the NFKC
# form, case-insensitively.
_HOW_MANY = re.compile(
    "|".join(p for patterns in HOW_MANY_PATTERNS.values() for p in patterns), re.IGNORECASE
)


def apply_scope(model_arguments: Mapping[str, Any], scope: Mapping[str, Any]) -> dict[str, Any]:
    """The model's arguments with the dispatch scope spread last (it wins)."""
    return {**model_arguments, **scope}


def offerable_axes(tool: str, candidates: tuple[str, ...]) -> tuple[str, ...]:
    """Keep only axes the tool accepts (its row's filter axes), in the candidates' order."""
    spec = tool_spec(tool)
    accepted = spec.axis_names if spec is not None else ()
    return tuple(axis for axis in candidates if axis in accepted)


def wants_aggregate(question: str) -> bool:
    """A "how many" question is answered by a single-value aggregate, not a list count.

    Any of the five locales' phrasings counts, whatever the request's locale:
    the question's language is the user's, not the panel's.
    """
    return bool(_HOW_MANY.search(unicodedata.normalize("NFKC", question)))


@dataclass(frozen=True, slots=True)
class PageShape:
    narrowed: bool
    pages: int
    upstream_has_more: bool
    returned: int


def promote_complete(verdict: CountVerdict, shape: PageShape) -> CountVerdict:
    """SHOWN/bounded → EXACT when a narrowed scope fit one page with nothing beyond."""
    if verdict.grade is Grade.UNKNOWN or verdict.grade is Grade.EXACT:
        return verdict
    if not shape.narrowed or shape.pages != 1 or shape.upstream_has_more or verdict.has_more:
        return verdict
    # A floor (a lower bound above what came back) means rows may exist beyond the page.
    if isinstance(verdict.value, int) and verdict.value > shape.returned:
        return verdict
    return replace(
        verdict,
        grade=Grade.EXACT,
        value=shape.returned,
        reason="narrowed scope returned one page with nothing beyond it",
        basis=Basis.NARROWED_PAGE,
    )


@dataclass(frozen=True, slots=True)
class ViewListVerdict:
    verdict: CountVerdict
    disclose_truncation: bool


def grade_view_list(length: int, wire_cap: int) -> ViewListVerdict:
    """A host list is what the host chose to send: SHOWN, never a total.

    At its wire cap it may have been cut, which the narration must disclose.
    """
    verdict = CountVerdict(
        Grade.SHOWN, length, length >= wire_cap, length, "host-sent subset", Basis.HOST_LIST
    )
    return ViewListVerdict(verdict, length >= wire_cap)
