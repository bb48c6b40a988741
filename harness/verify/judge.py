"""Verify's own judge of published prose: may this sentence stand on the turn's evidence?

Beacon's narration guard judges the model's text before its slots are
rendered; this judges what a server *published*, with slots already numbers,
and shares none of the guard's code (only the lexicon's word tables), so a
bug in the guard shows up as a verify failure instead of being graded by
itself. Each sentence is read once:

1. the rendered count forms (``phrases``) are found and set aside: they are code's;
2. every other number (``numbers``) must be a value the evidence carries
   (``values``: ids, titles, levels, dates, project names) or, when every count
   is EXACT and complete, one of those exact counts — under an UNKNOWN count no
   number at all may stand (``number_under_unknown``), else ``free_count``;
3. a count form of the population and one of the subset in one sentence
   (``subject_mixed``); an "all"/"exactly" (``completeness_claim``) needs every
   count it sits beside, or every count of the turn, EXACT and complete; a
   "none" (``absence_claim``) needs a count that is empty with standing; a free
   sentence about the results as a whole (``population_claim``) needs every
   count on screen whole.

The first rule a sentence breaks is its finding, in that order.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from beacon.wire.audit import DropRule
from harness.verify import claims
from harness.verify.numbers import Numeral, fold, numerals
from harness.verify.phrases import Count, Form, find_forms
from harness.verify.values import Span, Values, literal_spans, protected_spans

_TITLE_WORDS = 3  # a quoted value this long is a title or a name: its words are not a claim
_BLANK = "\u00b7"  # stands in for what was set aside: no digit, no letter, no word edge


@dataclass(frozen=True, slots=True)
class Evidence:
    """A turn's standing as its frames give it: its counts and its non-count values."""

    counts: tuple[Count, ...] = ()
    values: Values = field(default_factory=Values)

    @property
    def strict(self) -> bool:
        return any(c.grade == "UNKNOWN" for c in self.counts)

    @property
    def complete(self) -> bool:
        return bool(self.counts) and all(c.exact_and_complete for c in self.counts)

    @property
    def whole_on_screen(self) -> bool:
        return bool(self.counts) and all(c.whole_on_screen for c in self.counts)

    @property
    def may_say_none(self) -> bool:
        return any(c.may_say_none for c in self.counts)

    def exact_values(self) -> set[int]:
        return {c.total for c in self.counts if c.exact_and_complete and c.total is not None}


@dataclass(frozen=True, slots=True)
class Finding:
    rule: str  # a DropRule, or a check of verify's own (``denial``)
    token: str
    sentence: str
    judged_as: str  # the sentence with the count forms it was allowed marked as slots


_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|(?<=[。！？])\s*|\n+")
# "am 12. März", "im 3. Stock": a German ordinal's dot ends no sentence.
_ORDINAL_GOES_ON = re.compile(
    r"[a-zäöüß]|(?:Januar|Februar|März|April|Mai|Juni|Juli|August|September|Oktober|November"
    r"|Dezember|Stock|Etage|Ebene|OG|UG)\b"
)


def split_sentences(text: str) -> list[str]:
    """The sentences of ``text``, each with the whitespace after it."""
    parts, start = [], 0
    for m in _SENTENCE_END.finditer(text):
        if m.end() >= len(text) and not text[m.start() :].strip():
            break
        after_ordinal = m.start() >= 2 and re.match(r"\d\.", text[m.start() - 2 : m.start()])
        if after_ordinal and _ORDINAL_GOES_ON.match(text, m.end()):
            continue
        parts.append(text[start : m.end()])
        start = m.end()
    if start < len(text):
        parts.append(text[start:])
    return parts


def _inside(n: Numeral, spans: Iterable[Span]) -> bool:
    return any(a <= n.start and n.end <= b for a, b in spans)


def _blanked(text: str, spans: Iterable[Span]) -> str:
    chars = list(text)
    for a, b in spans:
        chars[a:b] = _BLANK * (b - a)
    return "".join(chars)


def _shown_by_pointing(text: str, found: list[Numeral], counts: Iterable[Count]) -> list[Form]:
    """A bare number equal to a count's displayed cards, in a sentence that points at the
    cards ("The 10 cards below …"): what ``{{shown:…}}`` renders to. Without the pointing
    it is indistinguishable from the model typing the page size as the total."""
    if not claims.shows_cards(text):
        return []
    shown = {c.displayed: c for c in counts if c.grade != "UNKNOWN" and c.displayed > 0}
    return [
        Form("shown", shown[n.value], n.start, n.end)
        for n in found
        if n.value in shown and not n.identifier
    ]


def _number_rule(
    found: list[Numeral], evidence: Evidence, protected: list[Span]
) -> tuple[DropRule, str] | None:
    exact = evidence.exact_values() if evidence.complete else set()
    for n in found:
        if evidence.strict:
            return DropRule.NUMBER_UNDER_UNKNOWN, n.text
        if n.identifier or _inside(n, protected) or n.value in exact:
            continue
        return DropRule.FREE_COUNT, n.text
    return None


def _states_exact(text: str, evidence: Evidence, locale: str) -> bool:
    exact = evidence.exact_values()
    return any(n.value in exact for n in numerals(text, locale))


def _clauses(forms: list[Form], breaks: list[int]) -> list[list[Form]]:
    """The forms grouped by the clause (between semicolons) they stand in."""
    grouped: dict[int, list[Form]] = {}
    for form in forms:
        grouped.setdefault(sum(1 for b in breaks if b < form.start), []).append(form)
    return list(grouped.values())


def _claim_rule(
    text: str, forms: list[Form], evidence: Evidence, locale: str
) -> tuple[DropRule, str] | None:
    # One clause holding a population count and the shown subset; a semicolon ends a
    # clause, so "… has at least 173 photos; these 10 …" is two subjects, not one.
    breaks = [i for i, ch in enumerate(text) if ch == ";"]  # a comma, even before "and", is none
    for clause in _clauses(forms, breaks):
        if {f.kind for f in clause} == {"count", "shown"}:
            return DropRule.SUBJECT_MIXED, clause[0].count.slot
    said = claims.completeness(text, beside_a_count=bool(forms))
    if said is not None:
        # Ten cards of an exact 714 are not "all of them": said of the cards on screen (a
        # shown form, "these", "here"), the claim needs the cards to be the whole set.
        if forms:
            stands = all(
                f.count.whole_on_screen if f.kind == "shown" else f.count.exact_and_complete
                for f in forms
            )
        elif claims.on_screen(text) and not _states_exact(text, evidence, locale):
            stands = evidence.whole_on_screen  # unless it names the exact count: "that's 714"
        else:
            stands = evidence.complete
        if not stands:
            return DropRule.COMPLETENESS_CLAIM, said
    none = claims.absence(text)
    if none is not None and not evidence.may_say_none:
        return DropRule.ABSENCE_CLAIM, none
    if not forms and none is None and not evidence.whole_on_screen:
        whole = claims.population(text)
        if whole is not None:
            return DropRule.POPULATION_CLAIM, whole
    return None


def judge_sentence(sentence: str, evidence: Evidence, locale: str) -> Finding | None:
    """None when a published sentence may stand on ``evidence``, else its first broken rule."""
    text = fold(sentence)
    forms = find_forms(text, evidence.counts)
    found = [
        n for n in numerals(text, locale) if not any(_inside(n, [(f.start, f.end)]) for f in forms)
    ]
    pointed = _shown_by_pointing(text, found, evidence.counts)
    forms = sorted([*forms, *pointed], key=lambda f: f.start)
    found = [n for n in found if not any(n.start == f.start for f in pointed)]
    spans = [(f.start, f.end) for f in forms]
    marked = text
    for f in reversed(forms):
        marked = marked[: f.start] + "{{" + f"{f.kind}:{f.count.slot}" + "}}" + marked[f.end :]
    protected = [] if evidence.strict else protected_spans(text, evidence.values)
    rule = _number_rule(found, evidence, protected)
    if rule is None:
        titles = literal_spans(text, evidence.values, _TITLE_WORDS)
        rule = _claim_rule(_blanked(text, spans + titles), forms, evidence, locale)
    if rule is None:
        return None
    return Finding(rule[0], rule[1], sentence.strip(), marked.strip())


def judge_text(text: str, evidence: Evidence, locale: str) -> list[Finding]:
    """Every sentence of ``text`` that may not stand, with the first rule it breaks."""
    findings = []
    for sentence in split_sentences(text):
        if sentence.strip() and (finding := judge_sentence(sentence, evidence, locale)):
            findings.append(finding)
    return findings
