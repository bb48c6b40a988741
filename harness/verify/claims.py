"""What a sentence claims without a number: absence, completeness, population.

The word classes are ``beacon.lexicon.grammar``'s tables (data, shared with the
guard: a word missing there is missing for both); how they combine into a claim
is written here, for verify alone, over word windows rather than the guard's
regular expressions:

- absence: a negative pronoun ("none", "nichts", "아무것도", "何も"); a negator
  whose window holds a verb of finding or existing, or (after it) a result noun
  or a polarity item; an emptiness word in a sentence about the results;
- completeness: a totaliser ("exactly", "in total", "insgesamt", "총", "合計"); a
  universal ("all", "todos", "모든", "すべて") not itself negated, in a sentence
  about the results (a result noun, a search word, a pronoun) or beside a count;
- population: a sentence with no count in it and nothing pointing at the cards
  on screen whose subject is the results as a whole ("The results are on
  level 3", "Die Fotos …", "写真は …") or a share of them ("most of the photos").
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from beacon.lexicon.grammar import (
    COVERAGE,
    DEFINITE,
    EMPTY,
    NEGATIVE_INDEFINITES,
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


def _class(fragments: Iterable[str]) -> re.Pattern[str]:
    def bounded(fragment: str) -> str:
        latin = fragment[:1].isascii() and not fragment.startswith("^")
        return rf"(?<!\w)(?:{fragment})(?!\w)" if latin else f"(?:{fragment})"

    return re.compile("|".join(bounded(f) for f in fragments), re.IGNORECASE)


def _every(classes: Classes) -> re.Pattern[str]:
    return _class(f for words in classes.values() for f in words)


NEGATOR = _every(NEGATORS)
NEGATIVE_PRONOUN = _every(NEGATIVE_PRONOUNS)
NEGATIVE_INDEFINITE = _every(NEGATIVE_INDEFINITES)
COVERS = _every(COVERAGE)
POLAR = _every(POLARITY)
UNIVERSAL = _every(UNIVERSALS)
TOTAL = _every(TOTALS)
PROPORTION = _every(PROPORTIONS)
EMPTINESS = _every(EMPTY)
RESULT = _class(RESULT_NOUNS)
SEARCH = _every(SEARCH_VERBS)
SEARCH_NOUN = _every(SEARCH_NOUNS)
PRONOUN = _every(PRONOUNS)
SHOWN = _every(SHOWN_MARKERS)

# How far a Latin-script negator reaches: two words back ("there are no", "es gibt keine")
# and five ahead, until its clause ends; a preposition ends what it governs ("not among
# the results" places something, it does not deny there are results).
_WORDS_BACK, _WORDS_AHEAD = 2, 5
_CJK_REACH = 12  # characters a Korean/Japanese clause-final negation looks back over
_WORD = re.compile(r"[\w'’]+")
_CLAUSE_END = re.compile(
    r"[,;:.!?()]|(?<!\w)(?:how|whether|if|why|what|which|because|but|so|although|wie|ob|warum"
    r"|weil|aber|sondern|cómo|cuántos|cuántas|si|porque|pero|aunque)(?!\w)",
    re.IGNORECASE,
)
_PREPOSITION = re.compile(
    r"(?<!\w)(?:among|in|on|at|from|with|within|between|into|inside|unter|zwischen|innerhalb"
    r"|entre|dentro)(?!\w)",
    re.IGNORECASE,
)
# "not all", "nicht alle", "not the whole set", "kein ganzes": the set is said not to be whole.
_NEGATED_BEFORE = re.compile(
    r"(?<!\w)(?:not|nicht|no|kein\w*)\s+(?:[^\W\d]+\s+){0,2}$",
    re.IGNORECASE,
)
# Words that point at what the reader sees: a whole-set claim made with them ("these are all
# of them", "here is every match") is said of the cards on screen, not of the population.
DEICTIC = _class(
    (
        r"these", r"those", r"here(?:['’]s)?", r"diese[nmrs]?", r"hier", r"estos", r"estas",
        r"esos", r"esas", r"aquí", r"여기", r"이것들", r"이들", r"これら", r"ここ", r"こちら",
        r"that(?:['’]s| is| was)", r"dies", r"das (?:sind|ist|war)", r"eso", r"이것이", r"이게",
        r"これで", r"これが", r"以上が", r"이상이",
        # Verbs of showing in their polite past ("보여드렸습니다", "表示しました"): the
        # lexicon's SHOWN markers hold only their plain forms.
        r"보여\s*드(?:린|렸|립)", r"표시(?:된|했|합)", r"表示し",
    )
)  # fmt: skip
# Additives: under a negation of the results they say nothing lies beyond what was said
# ("no more", "nothing else", "weitere gibt es nicht", "더 없습니다", "他にありません"): the
# set is whole (completeness), not empty (absence).
ADDITIVE = _class(
    (
        r"more", r"others?", r"further", r"else", r"another", r"additional", r"mehr",
        r"weitere\w*", r"andere\w*", r"sonst", r"zusätzliche\w*", r"más", r"otr[oa]s?",
        r"demás", r"adicional(?:es)?", r"더", r"다른", r"그\s*외", r"이외", r"추가", r"他に",
        r"ほかに", r"他の", r"ほかの", r"以外", r"これ以上", r"もう", r"追加",
    )
)  # fmt: skip
# A subject followed by an id or a quoted title names one record ("Die Aufnahme #10").
_NAMED = re.compile(r"\s*(?:[#№„“\"'«「]|[a-z]+-\d)", re.IGNORECASE)
# A Korean/Japanese clause ends at a comma or a stop, or at an embedded question
# ("몇 장인지는 알 수 없습니다", "何枚あるかは分かりません": the asking is denied, not the photos).
_CJK_CLAUSE = re.compile(
    r"[,、，.。!?！？]|(?:인지|는지|은지|을지)(?:는|를|도)?\s|か(?:は|を|どうか)"
)
_LATIN_DETERMINERS = [d for lang in ("en", "de", "es") for d in DEFINITE[lang]]
_TOPIC_PARTICLES = ("은", "는", "は")
_CLAUSE_OPENER = re.compile(r"(?:^|[,;:]|(?<!\w)(?:and|but|und|aber|y|pero|sino)(?!\w))\W*$", re.I)
_SHARE_OF = re.compile(r"(?:most|some|many|half|several)\s+of\s+$", re.IGNORECASE)


def about_results(text: str) -> bool:
    return bool(RESULT.search(text) or SEARCH.search(text) or SEARCH_NOUN.search(text))


def _latin_negation_denies(text: str, start: int, end: int) -> bool:
    back = " ".join(_WORD.findall(text[:start])[-_WORDS_BACK:])
    clause = _CLAUSE_END.split(text[end:], maxsplit=1)[0]
    ahead = " ".join(clause.split()[:_WORDS_AHEAD])
    governed = _PREPOSITION.split(ahead, maxsplit=1)[0]
    # "does not include photo search": a result noun naming a kind of search is the search's
    # modifier, not the results ("photo search" is a feature, not photos).
    governed = re.sub(rf"(?:{RESULT.pattern})\s+(?=(?:{SEARCH_NOUN.pattern}))", " ", governed)
    if SEARCH.search(back) or SEARCH.search(ahead):
        return True
    return bool(RESULT.search(governed) or POLAR.search(governed))


def _cjk_negation_denies(text: str, start: int, negator: str) -> bool:
    clause = _CJK_CLAUSE.split(text[:start])[-1][-_CJK_REACH:]
    return bool(SEARCH.search(clause) or RESULT.search(clause) or SEARCH.match(negator))


def _denies(text: str, m: re.Match[str]) -> bool:
    if m.group()[:1].isascii():
        return _latin_negation_denies(text, m.start(), m.end())
    return _cjk_negation_denies(text, m.start(), m.group())


def _negated_clause(text: str, m: re.Match[str]) -> str:
    if not m.group()[:1].isascii():
        return _CJK_CLAUSE.split(text[: m.start()])[-1] + m.group()
    before = _CLAUSE_END.split(text[: m.start()])[-1]
    return before + m.group() + _CLAUSE_END.split(text[m.end() :], maxsplit=1)[0]


def _denies_beyond(text: str, m: re.Match[str]) -> bool:
    return bool(ADDITIVE.search(_negated_clause(text, m))) and _denies(text, m)


def absence(text: str) -> str | None:
    """The words that say there is nothing, or None. A negation that is part of a totaliser
    ("no other", "nothing else", "keine weiteren") says the set is whole, not empty."""
    totals = [m.span() for m in TOTAL.finditer(text)]

    def in_total(m: re.Match[str]) -> bool:
        return any(a <= m.start() and m.end() <= b for a, b in totals)

    for m in NEGATIVE_PRONOUN.finditer(text):
        if not in_total(m):
            return m.group()
    for m in NEGATIVE_INDEFINITE.finditer(text):
        # "nothing" denies what its sentence is about: here, only the results or the search.
        if not in_total(m) and about_results(text):
            return m.group()
    for m in NEGATOR.finditer(text):
        if UNIVERSAL.match(text[m.end() :].lstrip()):
            continue  # "not every match is shown": a whole set denied, not an empty one
        if not in_total(m) and not _denies_beyond(text, m) and _denies(text, m):
            return m.group()
    empty = EMPTINESS.search(text)
    if empty and (about_results(text) or PRONOUN.search(text)):
        return empty.group()
    return None


def _reach_of_the_search(text: str, m: re.Match[str]) -> bool:
    """ "the next search covers everything": a universal naming where the search looks
    (governed by a coverage word in a sentence about the search), not what it found."""
    if not SEARCH_NOUN.search(text):
        return False
    if not m.group()[:1].isascii():
        return bool(COVERS.match(text, m.end()) or COVERS.search(text[m.end() : m.end() + 6]))
    words_before = _WORD.findall(text[: m.start()])[-3:]
    words_after = _WORD.findall(text[m.end() :])[:3]
    governed = COVERS.search(" ".join(words_before))
    return bool(governed) and not RESULT.search(" ".join(words_after))


def completeness(text: str, beside_a_count: bool) -> str | None:
    """The words that say this is the whole population, or None."""
    for m in TOTAL.finditer(text):
        if not _reach_of_the_search(text, m):
            return m.group()
    for m in NEGATOR.finditer(text):
        if _denies_beyond(text, m):
            return m.group()
    for m in UNIVERSAL.finditer(text):
        if _NEGATED_BEFORE.search(text[: m.start()]) or _reach_of_the_search(text, m):
            continue  # "not all of them" says the set is not whole
        if not m.group()[:1].isascii() and NEGATOR.search(_CJK_CLAUSE.split(text[m.end() :])[0]):
            continue  # "全体ではありません": a Korean/Japanese clause negates after the word
        if beside_a_count or about_results(text) or PRONOUN.search(text):
            return m.group()
    return None


# What says a bare number counts the cards on screen: where they are ("below", "unten",
# "abajo", "아래", "下の"), that they are cards, or that they are being shown ("se muestran
# 6", "6件を表示しています", "6건이 표시됩니다"). Not a bare demonstrative ("その", "그"):
# "そのうち十件" is a share of the population, typed.
SHOWING = _class(
    (
        r"below", r"above", r"shown", r"displayed", r"cards?", r"unten", r"oben",
        r"angezeigt\w*", r"gezeigt\w*", r"karten?", r"abajo", r"arriba", r"tarjetas?",
        r"se muestran?", r"mostrad[oa]s", r"아래", r"위의", r"카드", r"표시", r"以下", r"下記",
        r"下の", r"カード", r"表示",
    )
)  # fmt: skip


def points_at_cards(text: str) -> bool:
    return bool(SHOWN.search(text))


def shows_cards(text: str) -> bool:
    """The sentence points at the cards on screen or says they are being shown."""
    return bool(SHOWING.search(text))


def on_screen(text: str) -> bool:
    """The sentence speaks of the cards the reader sees ("below", "these", "here")."""
    return points_at_cards(text) or bool(DEICTIC.search(text))


def _latin_subject(text: str) -> str | None:
    for det in _LATIN_DETERMINERS:
        for m in re.finditer(rf"(?<!\w){det}\s+", text, re.IGNORECASE):
            before = text[: m.start()]
            share = _SHARE_OF.search(before)
            if not _CLAUSE_OPENER.search(before[: share.start()] if share else before):
                continue
            words = list(_WORD.finditer(text, m.end()))[:3]
            for i, word in enumerate(words):
                between = text[m.end() : word.start()]
                if re.search(r"[^\w\s]|\d", between):
                    break
                if RESULT.fullmatch(word.group()) or (
                    i and RESULT.fullmatch(text[words[i - 1].start() : word.end()])
                ):
                    plural = det.lower() != "the" or word.group().lower().endswith("s")
                    if plural and not _NAMED.match(text, word.end()):
                        return text[m.start() : word.end()]
    return None


def population(text: str) -> str | None:
    """A sentence (already free of counts) that describes the results as a whole, or None."""
    if points_at_cards(text):
        return None
    if (m := PROPORTION.search(text)) and RESULT.search(text):
        return m.group()
    if subject := _latin_subject(text):
        return subject
    for m in RESULT.finditer(text):
        if m.group()[:1].isascii():
            continue
        rest = text[m.end() :]
        rest = rest[1:] if rest.startswith("들") else rest
        rest = rest[1:] if rest.startswith(("에", "に")) else rest  # 사진에는, 写真には
        if rest.startswith(_TOPIC_PARTICLES):
            return m.group() + rest[:1]
    return None
