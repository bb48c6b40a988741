"""The narration guard: no sentence states a number, an "all" or a "none" code did not grade.

Prompts ask the model to write counts only through slots; this holds when it
does not. Each sentence of the answer is judged against the turn's
``Standing`` before it may be published, and dropped whole when it carries

- ``number_under_unknown``: any number at all while a counted source is UNKNOWN;
- ``free_count``: a number no slot rendered and no non-count value of the
  evidence explains (a number equal to an exact count may stay only when the
  whole answer is EXACT and complete);
- ``completeness_claim``: "exactly", "all of them", "in total", "only these" …
  unless the counts it rests on are EXACT and complete;
- ``absence_claim``: a negation about the results or the search ("there are
  none", "no photos matched", "the search came back empty") unless a source is
  empty with standing;
- ``population_claim``: a free sentence that describes the results as a whole
  ("The results are on level 3") unless every counted source is on screen whole;
  under a bound or a sample, what the cards show is said through the shown slot;
- ``subject_mixed``: a population slot and a subset slot in one sentence ("Of
  at least 189 matches these 10 are on level 3" reads as if all 189 were).

The claims are closed word classes meeting a subject (``claims.py``), not a list
of phrasings to paraphrase around.

Slots (``{{count:c1}}``) are judged as the placeholders the model wrote: the
number they become is code's. ``GuardedStream`` applies the guard sentence by
sentence as text arrives, then renders the slots of what survived.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from beacon.adjudication.guard.claims import (
    absence_claim,
    completeness_claim,
    negative_pronouns,
    on_screen,
    population_claim,
)
from beacon.adjudication.guard.counted import Counted
from beacon.adjudication.guard.numerals import Numeral, find_numerals, normalize, word_value
from beacon.adjudication.guard.slots import (
    SLOT,
    SlotStream,
    render_sentence,
    shares_subject,
)
from beacon.adjudication.guard.standing import Standing
from beacon.wire.audit import AuditKind, DropRule

_TITLE_WORDS = 3  # a value this long is a title or a name, not a word a claim is made of
_MASK = "\u00b7"  # a placeholder no reader takes for a digit, a letter or a word boundary


@dataclass(frozen=True, slots=True)
class Drop:
    rule: DropRule
    token: str
    sentence: str

    def record(self) -> dict[str, str]:
        return {"kind": AuditKind.NARRATION_DROPPED, "rule": self.rule, "token": self.token}


def _masked(text: str, spans: list[tuple[int, int]]) -> str:
    chars = list(text)
    for start, end in spans:
        chars[start:end] = _MASK * (end - start)
    return "".join(chars)


def _protected_spans(text: str, standing: Standing) -> list[tuple[int, int]]:
    pattern = standing.pattern_for(text)
    return [] if pattern is None else [m.span() for m in pattern.finditer(text)]


def _numeral_value(numeral: Numeral, locale: str) -> int | None:
    digits = numeral.text.replace(",", "").replace(".", "").replace(" ", "")
    digits = digits.replace("\u00a0", "").replace("\u202f", "")
    if digits.isdigit():
        return int(digits)
    return word_value(numeral.text, locale)


def _claim_has_standing(text: str, standing: Standing, locale: str) -> bool:
    """A completeness claim stands on EXACT, complete counts: the ones its count slots
    name, or (with no slot in the sentence) every counted source of the turn. Said of
    the cards on screen ("these are all of them", a shown slot), it stands only when
    the cards are the whole set: ten cards of an exact 714 are not "all of them" —
    unless it states that exact count itself ("that's exactly 714")."""
    slots = [(m.group(1), standing.by_slot(m.group(2))) for m in SLOT.finditer(text)]
    if slots:
        return all(
            s is not None and (s.wholly_shown if kind == "shown" else s.complete)
            for kind, s in slots
        )
    if on_screen(text) and not _states_exact_count(text, standing, locale):
        return standing.whole_population
    return standing.complete


def _states_exact_count(text: str, standing: Standing, locale: str) -> bool:
    return any(
        _numeral_value(n, locale) in standing.exact_values for n in find_numerals(text, locale)
    )


def _number_verdict(
    text: str, slots: list[tuple[int, int]], standing: Standing, locale: str
) -> tuple[DropRule, str] | None:
    """The first numeral ``text`` may not state, as (rule, token); slots are placeholders,
    and so is the "one" of a negative pronoun ("not one", "한 장도", "一枚も")."""
    for numeral in find_numerals(_masked(text, [*slots, *negative_pronouns(text)]), locale):
        if standing.strict:
            return DropRule.NUMBER_UNDER_UNKNOWN, numeral.text
        if numeral.identifier:
            continue
        if standing.complete and _numeral_value(numeral, locale) in standing.exact_values:
            continue
        return DropRule.FREE_COUNT, numeral.text
    return None


def _claim_verdict(text: str, standing: Standing, locale: str) -> tuple[DropRule, str] | None:
    # A semicolon ends a clause as a full stop would ("Harbor Tower has {{count:c1}}
    # photos; the cards below are the first {{shown:c1}}"); a comma does not, even before
    # "and": "…, and the {{shown:c1}} below …" still reads as one sentence of one set.
    mixed = next((c for c in text.split(";") if shares_subject(c)), None)
    if mixed is not None:
        return DropRule.SUBJECT_MIXED, SLOT.findall(mixed)[0][1]
    claim = completeness_claim(text)
    if claim is not None and not _claim_has_standing(text, standing, locale):
        return DropRule.COMPLETENESS_CLAIM, claim
    absence = absence_claim(text)
    if absence is not None and not standing.may_say_none:
        return DropRule.ABSENCE_CLAIM, absence
    claim = population_claim(text)
    # "写真は見つかりませんでした" is about the results as a whole, and says the one thing a
    # grounded absence lets it say of them; "지적 사항은 정확히 24건입니다" says the one thing
    # an exact, complete count lets it say of them.
    if (
        claim is not None
        and not standing.whole_population
        and absence is None
        and not _states_exact_count(text, standing, locale)
    ):
        return DropRule.POPULATION_CLAIM, claim
    return None


def _verdict(
    text: str, slots: list[tuple[int, int]], standing: Standing, locale: str
) -> tuple[DropRule, str] | None:
    """The first rule ``text`` breaks, as (rule, token); slots are placeholders."""
    return _number_verdict(text, slots, standing, locale) or _claim_verdict(text, standing, locale)


def _holding_claims(text: str, spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The protected values that hold a claim's words whole (a title "No hi-vis vest in
    loading area"): those are the value's words. A short value inside a claim — a status
    "open", an enumerated "none" — excuses nothing: a title is three words or more."""
    return [
        (start, end)
        for start, end in spans
        if len(text[start:end].split()) >= _TITLE_WORDS
        and (completeness_claim(text[start:end]) or absence_claim(text[start:end]))
    ]


def judge(sentence: str, standing: Standing, locale: str) -> Drop | None:
    """None when the sentence may be published, else the first rule it breaks."""
    text = normalize(sentence)
    slots = [m.span() for m in SLOT.finditer(text)]
    found = _verdict(text, slots, standing, locale)
    if found is None or standing.strict:
        return None if found is None else Drop(*found, sentence)
    # Only a suspect sentence pays for the evidence's values: a number inside a level
    # name, a date, an id or a title is that value's, not the model's; so is a claim
    # a title spells out whole.
    protected = _protected_spans(text, standing)
    if protected:
        found = _number_verdict(_masked(text, protected), slots, standing, locale) or (
            _claim_verdict(_masked(text, _holding_claims(text, protected)), standing, locale)
        )
    return None if found is None else Drop(*found, sentence)


class GuardedStream(SlotStream):
    """``SlotStream`` with the guard in front: a sentence is judged whole, as the
    model wrote it, and only what passes has its slots rendered and is yielded."""

    def __init__(self, slots: Mapping[str, Counted], standing: Standing, locale: str) -> None:
        super().__init__(slots, locale)
        self._standing = standing
        self.drops: list[Drop] = []

    def _render(self, sentences: list[str]) -> str:
        out = []
        for sentence in sentences:
            drop = judge(sentence, self._standing, self._locale)
            if drop is not None:
                self.drops.append(drop)
                continue
            rendered, entries = render_sentence(sentence, self._slots, self._locale)
            out.append(rendered)
            self.audit.extend(entries)
        return "".join(out)
