"""Claims a sentence makes without a number: absence, completeness, population.

Each claim is a closed word class (``beacon.lexicon.grammar``) meeting a
subject, not a listed phrasing:

- **absence**: a negative pronoun ("none", "nichts", "아무것도"); or a negator
  whose clause is about searching or existing ("couldn't find", "no hay",
  "見つかりません") or whose noun phrase is the results ("no photos", "keine
  weiteren Treffer") or that a polarity item widens ("don't see any"); or an
  emptiness predicate of the search or its results ("came back empty").
- **completeness**: a totaliser ("exactly", "everything", "the lot",
  "insgesamt"); or a universal quantifier in a sentence about the results
  ("all the photos", "every match", "sämtliche Befunde", "모든 사진").
- **population**: a free sentence whose subject is the results as a definite
  whole ("The results are on level 3", "Die Fotos zeigen …", "写真は3階に…") or
  a share of them ("most of the photos"), with no marker tying it to the cards
  on screen — a property read off a sample and said of the population.

Every locale's classes are tried on every sentence (a model does not always
answer in the locale it was asked in). The verdict — whether the turn's
standing grounds a claim — is ``beacon.adjudication.guard.judge``'s.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from beacon.lexicon.grammar import (
    ADDITIVES,
    CLAUSE_BREAKERS,
    CONJUNCTIONS,
    COVERAGE,
    DEFINITE,
    DEICTICS,
    EMPTY,
    NEGATIVE_INDEFINITES,
    NEGATIVE_PRONOUNS,
    NEGATORS,
    POLARITY,
    PREPOSITIONS,
    PRONOUNS,
    PROPORTIONS,
    RESULT_NOUNS,
    SEARCH_NOUNS,
    SEARCH_VERBS,
    SHOWN_MARKERS,
    TOTALS,
    UNIVERSALS,
    Classes,
)
from beacon.lexicon.words import word_union

_SLOT_START = r"\{\{"


def _words(classes: Classes) -> str:
    """A class's words as one alternation, locale by locale."""
    return "|".join(w for words in classes.values() for w in words)


# How far a negation reaches: two words back (an existential "there are no"), five
# ahead within its clause, or back over a Korean/Japanese clause's last characters.
_BEFORE_WORDS = 2
_AFTER_WORDS = 5
_CJK_BEFORE_CHARS = 12
_PREPOSITION = re.compile(rf"\b(?:{_words(PREPOSITIONS)})\b", re.IGNORECASE)
# "not all of them", "nicht alle", "no todos", "not the whole set": a negated universal
# says the set is not whole (an article may stand between them).
# ("not the whole set", "no el conjunto completo": up to two words between them), and so
# does a Korean or Japanese universal its copula denies ("전체가 아닙니다", "全体ではありません").
_NOT_BEFORE = re.compile(r"(?<!\w)(?:not|nicht|no|kein\w*)\s+(?:\w+\s+){0,2}$", re.IGNORECASE)
_NOT_AFTER = re.compile(r"\s*(?:가|이)?\s*아니|(?:では|じゃ)(?:ありません|ない)")
_WORDS = re.compile(r"[\w'’]+")
_CLAUSE_BREAK = re.compile(rf"[,;:.!?()]|\b(?:{_words(CLAUSE_BREAKERS)})\b", re.IGNORECASE)


def _union(fragments: Iterable[str]) -> re.Pattern[str]:
    return re.compile(word_union(fragments), re.IGNORECASE)


def _all(classes: Classes) -> re.Pattern[str]:
    return _union(f for fragments in classes.values() for f in fragments)


_NEGATOR = _all(NEGATORS)
_NEGATIVE_PRONOUN = _all(NEGATIVE_PRONOUNS)
_NEGATIVE_INDEFINITE = _all(NEGATIVE_INDEFINITES)
_COVERAGE = _all(COVERAGE)
# How far a coverage verb governs: three words on (Latin), or the few characters a
# Korean or Japanese universal sits before its 대상/対象.
_COVERAGE_WORDS = 3
_COVERAGE_CHARS = 6
_POLARITY = _all(POLARITY)
_UNIVERSAL = _all(UNIVERSALS)
_TOTAL = _all(TOTALS)
_PROPORTION = _all(PROPORTIONS)
_EMPTY = _all(EMPTY)
_RESULT = _union(RESULT_NOUNS)
_SEARCH = _all(SEARCH_VERBS)
_SEARCH_NOUN = _all(SEARCH_NOUNS)
_SHOWN = re.compile(rf"{_SLOT_START}shown:|" + _all(SHOWN_MARKERS).pattern, re.IGNORECASE)
_DEICTIC = _all(DEICTICS)
_ADDITIVE = _all(ADDITIVES)
# A subject followed by an id or a quoted title names one record ("Die Aufnahme #10",
# "The photo ph-000223"), not the results as a whole.
_NAMED_RECORD = re.compile(r"\s*(?:[#№„“\"'«「]|[a-z]+-\d)", re.IGNORECASE)
_PRONOUN = _all(PRONOUNS)
_LATIN_DEFINITE = "|".join(d for lang in ("en", "de", "es") for d in DEFINITE[lang])
_CJK_TOPIC = "|".join(d for lang in ("ko", "ja") for d in DEFINITE[lang] if d in ("은", "는", "は"))
# A clause starts a sentence or follows a comma, a colon or a conjunction.
_CLAUSE_START = rf"(?:^|[,;:]|\b(?:{_words(CONJUNCTIONS)})\b)\W*"
_LATIN_SUBJECT = re.compile(
    rf"{_CLAUSE_START}(?:(?:most|some|many|half|several) of )?(?P<det>{_LATIN_DEFINITE})\s+"
    rf"(?:[^\W\d]+\s+){{0,2}}?(?:{_RESULT.pattern})",
    re.IGNORECASE,
)
# "사진은", "写真は", and with a locative before the topic: "사진에는", "写真には".
_CJK_SUBJECT = re.compile(rf"(?:{_RESULT.pattern})(?:들)?(?:에|に)?(?:{_CJK_TOPIC})")


def _latin_scope(text: str, start: int, end: int) -> str:
    """What a Latin-script negator reaches: the two words before it (an existential
    "there are no", "es gibt keine") and up to five after, stopping where the clause
    does (punctuation, "how", "whether", "but" …): "did not say how many there are"
    denies the saying, not that there are any."""
    before = " ".join(_WORDS.findall(text[:start])[-_BEFORE_WORDS:])
    after = _CLAUSE_BREAK.split(text[end:], maxsplit=1)[0]
    return before + " · " + " ".join(after.split()[:_AFTER_WORDS])


def _cjk_scope(text: str, start: int) -> str:
    """A Korean or Japanese negation ends its clause: it reaches back over the verb and
    noun it negates ("사진을 찾지 못했습니다", "写真はありません"), not over the sentence."""
    return _cjk_clause(text, start)[-_CJK_BEFORE_CHARS:]


# An embedded question ends a Korean or Japanese clause: "몇 장인지는 알 수 없습니다",
# "何枚あるかは分かりません" deny the knowing, not the photos.
_CJK_CLAUSE_BREAK = re.compile(
    r"[,、，.。!?！？]|(?:인지|는지|은지|을지)(?:는|를|도)?\s|か(?:は|を|どうか)"
)


def _cjk_clause(text: str, start: int) -> str:
    """The clause before a Korean or Japanese negation."""
    return _CJK_CLAUSE_BREAK.split(text[:start])[-1]


def _denies_results(text: str, negator: re.Match[str]) -> bool:
    if negator.group()[:1].isascii():
        scope = _latin_scope(text, negator.start(), negator.end())
        # What the negator governs stops at a preposition: "not among the results"
        # places something, it does not deny that there are results.
        governed = _PREPOSITION.split(scope.split(" · ", 1)[1], maxsplit=1)[0]
        return bool(_SEARCH.search(scope) or _RESULT.search(governed) or _POLARITY.search(governed))
    scope = _cjk_scope(text, negator.start())
    return bool(_SEARCH.search(scope) or _RESULT.search(scope) or _SEARCH.match(negator.group()))


def _clause(text: str, negator: re.Match[str]) -> str:
    """The clause a negator stands in: "weitere Treffer gibt es nicht", "더 없습니다"."""
    if not negator.group()[:1].isascii():
        return _cjk_clause(text, negator.start()) + negator.group()
    before = _CLAUSE_BREAK.split(text[: negator.start()])[-1]
    after = _CLAUSE_BREAK.split(text[negator.end() :], maxsplit=1)[0]
    return before + negator.group() + after


def _denies_more(text: str, negator: re.Match[str]) -> bool:
    """A negation of the results with an additive in its clause: nothing beyond."""
    return bool(_ADDITIVE.search(_clause(text, negator))) and _denies_results(text, negator)


def _about_results(text: str) -> bool:
    return bool(_RESULT.search(text) or _SEARCH.search(text) or _SEARCH_NOUN.search(text))


def _in_total(match: re.Match[str], totals: list[tuple[int, int]]) -> bool:
    return any(start <= match.start() and match.end() <= end for start, end in totals)


def negative_pronouns(text: str) -> list[tuple[int, int]]:
    """Where the negative pronouns stand: the "one" of "한 장도", "一枚も" is no count."""
    return [m.span() for m in _NEGATIVE_PRONOUN.finditer(text)]


def _skip_space(text: str, at: int) -> int:
    while at < len(text) and text[at].isspace():
        at += 1
    return at


def absence_claim(text: str) -> str | None:
    """The words that claim there is nothing, or None. A negation inside a totaliser
    ("no other", "nothing else", "keine weiteren", "no hay más") says the set is whole,
    not that it is empty: that claim is completeness's to judge."""
    totals = [m.span() for m in _TOTAL.finditer(text)]
    pronoun = next((p for p in _NEGATIVE_PRONOUN.finditer(text) if not _in_total(p, totals)), None)
    if pronoun:
        return pronoun.group()
    indefinite = next(
        (p for p in _NEGATIVE_INDEFINITE.finditer(text) if not _in_total(p, totals)), None
    )
    if indefinite and _about_results(text):
        return indefinite.group()
    for negator in _NEGATOR.finditer(text):
        if _in_total(negator, totals) or _denies_more(text, negator):
            continue
        if _UNIVERSAL.match(text, _skip_space(text, negator.end())):
            continue  # "not every match is shown": the set is not whole, not empty
        if _denies_results(text, negator):
            return negator.group()
    empty = _EMPTY.search(text)
    if empty and (_about_results(text) or _PRONOUN.search(text)):
        return empty.group()
    return None


def _covered(text: str, match: re.Match[str]) -> bool:
    """A universal a coverage verb governs in a sentence about the search: its reach
    ("the next search covers everything"), not its results — unless what it covers is
    the results themselves ("that covers every hard hat photo")."""
    if not _SEARCH_NOUN.search(text):
        return False
    if match.group()[:1].isascii():
        before = " ".join(_WORDS.findall(text[: match.start()])[-_COVERAGE_WORDS:])
        after = " ".join(_WORDS.findall(text[match.end() :])[:_COVERAGE_WORDS])
        return bool(_COVERAGE.search(before)) and not _RESULT.search(after)
    return bool(_COVERAGE.search(text[match.end() : match.end() + _COVERAGE_CHARS]))


def completeness_claim(text: str) -> str | None:
    """The words that claim the whole population, or None."""
    total = next((t for t in _TOTAL.finditer(text) if not _covered(text, t)), None)
    if total:
        return total.group()
    denied = next((n for n in _NEGATOR.finditer(text) if _denies_more(text, n)), None)
    if denied:
        return denied.group()
    universal = next(
        (
            u
            for u in _UNIVERSAL.finditer(text)
            if not _NOT_BEFORE.search(text[: u.start()])
            and not _NOT_AFTER.match(text, u.end())
            and not _covered(text, u)
        ),
        None,
    )
    if universal and (
        _about_results(text) or _PRONOUN.search(text) or re.search(_SLOT_START, text)
    ):
        return universal.group()
    return None


def on_screen(text: str) -> bool:
    """The sentence points at the cards the reader sees ("these", "here", "below")."""
    return bool(_SHOWN.search(text) or _DEICTIC.search(text))


def population_claim(text: str) -> str | None:
    """A free sentence (no slot) that describes the results as a whole, or None."""
    if re.search(_SLOT_START, text) or _SHOWN.search(text):
        return None
    proportion = _PROPORTION.search(text)
    if proportion and _RESULT.search(text):
        return proportion.group()
    for subject in _LATIN_SUBJECT.finditer(text):
        if _NAMED_RECORD.match(text, subject.end()):
            continue
        # "the photo" is one card; "the photos", "die Fotos", "las fotos" are the set.
        if subject.group("det").lower() != "the" or subject.group().lower().endswith("s"):
            return subject.group().strip(" ,;:")
    topic = _CJK_SUBJECT.search(text)
    return topic.group() if topic else None
