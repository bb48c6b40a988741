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
standing grounds a claim — is ``beacon.adjudication.guard``'s.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from beacon.lexicon.grammar import (
    DEFINITE,
    EMPTY,
    NEGATIVE_PRONOUNS,
    NEGATORS,
    POLARITY,
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

_SLOT_START = r"\{\{"
# How far a negation reaches: two words back (an existential "there are no"), five
# ahead within its clause, or back over a Korean/Japanese clause's last characters.
_BEFORE_WORDS = 2
_AFTER_WORDS = 5
_CJK_BEFORE_CHARS = 12
_PREPOSITION = re.compile(
    r"\b(?:among|in|on|at|from|with|within|between|into|inside|unter|zwischen|innerhalb"
    r"|entre|dentro)\b",
    re.IGNORECASE,
)
# "not all of them", "nicht alle", "no todos": a negated universal says the set is not whole.
_NOT_BEFORE = re.compile(r"(?<!\w)(?:not|nicht|no)\s+$", re.IGNORECASE)
_WORDS = re.compile(r"[\w'’]+")
_CLAUSE_BREAK = re.compile(
    r"[,;:.!?()]|\b(?:how|whether|if|why|what|which|because|but|so|although|wie|ob|warum"
    r"|weil|aber|sondern|cómo|cuántos|cuántas|si|porque|pero|aunque)\b",
    re.IGNORECASE,
)


def _word(fragment: str) -> str:
    """A Latin fragment as a whole word; Hangul and kana need no boundary."""
    latin = fragment[:1].isascii() and not fragment.startswith("^")
    return rf"(?<!\w)(?:{fragment})(?!\w)" if latin else f"(?:{fragment})"


def _union(fragments: Iterable[str]) -> re.Pattern[str]:
    return re.compile("|".join(_word(f) for f in fragments), re.IGNORECASE)


def _all(classes: Classes) -> re.Pattern[str]:
    return _union(f for fragments in classes.values() for f in fragments)


_NEGATOR = _all(NEGATORS)
_NEGATIVE_PRONOUN = _all(NEGATIVE_PRONOUNS)
_POLARITY = _all(POLARITY)
_UNIVERSAL = _all(UNIVERSALS)
_TOTAL = _all(TOTALS)
_PROPORTION = _all(PROPORTIONS)
_EMPTY = _all(EMPTY)
_RESULT = _union(RESULT_NOUNS)
_SEARCH = _all(SEARCH_VERBS)
_SEARCH_NOUN = _all(SEARCH_NOUNS)
_SHOWN = re.compile(rf"{_SLOT_START}shown:|" + _all(SHOWN_MARKERS).pattern, re.IGNORECASE)
_PRONOUN = _all(PRONOUNS)
_LATIN_DEFINITE = "|".join(d for lang in ("en", "de", "es") for d in DEFINITE[lang])
_CJK_TOPIC = "|".join(d for lang in ("ko", "ja") for d in DEFINITE[lang] if d in ("은", "는", "は"))
# A clause starts a sentence or follows a comma, a colon or a conjunction.
_CLAUSE_START = r"(?:^|[,;:]|\b(?:and|but|und|aber|y|pero|sino)\b)\W*"
_LATIN_SUBJECT = re.compile(
    rf"{_CLAUSE_START}(?:(?:most|some|many|half|several) of )?(?P<det>{_LATIN_DEFINITE})\s+"
    rf"(?:[^\W\d]+\s+){{0,2}}?(?:{_RESULT.pattern})",
    re.IGNORECASE,
)
_CJK_SUBJECT = re.compile(rf"(?:{_RESULT.pattern})(?:들)?(?:{_CJK_TOPIC})")


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
    clause = re.split(r"[,、，.。!?！？]", text[:start])[-1]
    return clause[-_CJK_BEFORE_CHARS:]


def _denies_results(text: str, negator: re.Match[str]) -> bool:
    if negator.group()[:1].isascii():
        scope = _latin_scope(text, negator.start(), negator.end())
        # What the negator governs stops at a preposition: "not among the results"
        # places something, it does not deny that there are results.
        governed = _PREPOSITION.split(scope.split(" · ", 1)[1], maxsplit=1)[0]
        return bool(_SEARCH.search(scope) or _RESULT.search(governed) or _POLARITY.search(governed))
    scope = _cjk_scope(text, negator.start())
    return bool(_SEARCH.search(scope) or _RESULT.search(scope) or _SEARCH.match(negator.group()))


def _about_results(text: str) -> bool:
    return bool(_RESULT.search(text) or _SEARCH.search(text) or _SEARCH_NOUN.search(text))


def absence_claim(text: str) -> str | None:
    """The words that claim there is nothing, or None."""
    pronoun = _NEGATIVE_PRONOUN.search(text)
    if pronoun:
        return pronoun.group()
    for negator in _NEGATOR.finditer(text):
        if _denies_results(text, negator):
            return negator.group()
    empty = _EMPTY.search(text)
    if empty and (_about_results(text) or _PRONOUN.search(text)):
        return empty.group()
    return None


def completeness_claim(text: str) -> str | None:
    """The words that claim the whole population, or None."""
    total = _TOTAL.search(text)
    if total:
        return total.group()
    universal = next(
        (u for u in _UNIVERSAL.finditer(text) if not _NOT_BEFORE.search(text[: u.start()])), None
    )
    if universal and (
        _about_results(text) or _PRONOUN.search(text) or re.search(_SLOT_START, text)
    ):
        return universal.group()
    return None


def population_claim(text: str) -> str | None:
    """A free sentence (no slot) that describes the results as a whole, or None."""
    if re.search(_SLOT_START, text) or _SHOWN.search(text):
        return None
    proportion = _PROPORTION.search(text)
    if proportion and _RESULT.search(text):
        return proportion.group()
    for subject in _LATIN_SUBJECT.finditer(text):
        # "the photo" is one card; "the photos", "die Fotos", "las fotos" are the set.
        if subject.group("det").lower() != "the" or subject.group().lower().endswith("s"):
            return subject.group().strip(" ,;:")
    topic = _CJK_SUBJECT.search(text)
    return topic.group() if topic else None

