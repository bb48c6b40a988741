"""Words of a question no axis read: each may narrow the asked set, so each is a constraint.

The constraint reader knows a closed list of ways a set is narrowed (a project, a
date, a level, a status …). "How many overdue findings are in Harbor Tower?" names
none of them by those words, so the reader used to see the whole project; a planner
that dropped "overdue" then got "exactly 1,800" stated as the answer — a count of
another set, the lie the scope check exists to stop. A reader cannot know every
word; it can know which words leave a set as it is (the question's form,
``lexicon.shape``) and take every other one for a constraint it did not read: never
applied, so every count of that question is disclosed with the phrase, not stated.
"""

from __future__ import annotations

import re

from beacon.lexicon.shape import FORM_PIECES, FORM_WORDS, PARTICLES
from beacon.lexicon.words import (
    CATEGORIES,
    EARLIEST,
    FUNCTION_WORDS,
    KINDS,
    LATEST,
    MOST,
    RECORDS,
    STATUSES,
    TOPICS,
    bounded,
    fold,
)
from beacon.wire.tools import RECORD_KINDS

# A Latin-script word, an apostrophe inside it kept ("Whitfield's", "i'm").
_LATIN_WORD = re.compile(r"[A-Za-zß-öø-ÿÀ-ÖØ-Þ]+(?:['’][A-Za-zß-öø-ÿ]+)*")
_FORM = FUNCTION_WORDS | frozenset(fold(w) for words in FORM_WORDS.values() for w in words)
# Any pattern of the word tables, as one alternation compiled once.
TABLE_WORD = re.compile(
    "|".join(
        f"(?:{pattern})"
        for table in (RECORDS, STATUSES, KINDS, CATEGORIES, TOPICS)
        for patterns in table.values()
        for pattern in patterns
    )
)
# "photos of guardrails", "Fotos von Gerüsten", "fotos de andamios": the subject after the noun.
_TOPIC_AFTER = re.compile(
    r"(?:of|showing|with|about|mentioning|von|mit|über|zu|de|con|sobre)\s+(.+)", re.IGNORECASE
)
_TOPIC_STOP = re.compile(
    r"\s(?:on|in|at|from|for|during|taken|raised|by|auf|im|in|am|bei|vom|en|del|durante|"
    r"tomadas?|hechas?)\s|[?.!,;]",
    re.IGNORECASE,
)
# Korean and Japanese: the form's pieces and the record nouns, longest first; particles
# (Japanese anywhere, Korean ending a word); then what Hangul, kana or kanji is left.
_CJK = "\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af"
_PIECES = re.compile(
    "|".join(
        sorted(
            {re.escape(p) for pieces in FORM_PIECES.values() for p in pieces}
            | {p for patterns in RECORDS.values() for p in patterns if not p[:1].isascii()},
            key=len,
            reverse=True,
        )
    )
)
_PARTICLES = re.compile(
    f"(?:{'|'.join(PARTICLES['ja'])})"
    f"|(?:{'|'.join(sorted(PARTICLES['ko'], key=len, reverse=True))})(?![가-힣])"
)
_CJK_RUN = re.compile(f"[{_CJK}]+")
_RECORD_ID = re.compile(
    rf"(?<![\w-])(?:{'|'.join(re.escape(kind.id_prefix) for kind in RECORD_KINDS)})\w+"
)
# What may stand between two unread words of one phrase ("high severity", "re-opened",
# "기한이 지난"): spaces, hyphens and particles.
_JOINED = re.compile(r"[\s-]*")


def _folded(word: str) -> str:
    folded = fold(word).strip("'’")
    return folded[:-2] if folded.endswith(("'s", "’s")) else folded


def joining_word(word: str) -> bool:
    """A word that opens a question or joins its parts, or a word of a table: never a
    name, never a subject (the name and subject readers stop at one)."""
    folded = _folded(word)
    return folded in FUNCTION_WORDS or TABLE_WORD.fullmatch(folded) is not None


def known_word(word: str) -> bool:
    """A joining word or a word of the question's form: never a leftover."""
    return _folded(word) in _FORM or joining_word(word)


def free_subject(text: str) -> tuple[str, str] | None:
    """The subject after a photo or document noun, when no topic word named it, as the
    words a query must carry and the phrase that said it ("photos of cracked slabs")."""
    nouns = "|".join(p for key in ("photos", "documents") for p in RECORDS[key])
    noun = re.search(bounded(nouns), fold_keep(text))
    if noun is None:
        return None
    after = _TOPIC_AFTER.match(text[noun.end() :].lstrip())
    if after is None:
        return None
    tail = after.group(1)
    stop = _TOPIC_STOP.search(" " + tail)
    phrase = (tail[: stop.start() - 1] if stop and stop.start() > 0 else tail).strip()
    words = [w for w in re.findall(r"[^\W\d_]+", phrase) if not joining_word(w)]
    return (" ".join(w.casefold() for w in words), phrase) if words else None


def fold_keep(text: str) -> str:
    """Case-folded with every character kept in place (spans stay valid in ``text``)."""
    folded = text.casefold()
    if len(folded) == len(text):
        # No character folded to more than one (none folds to none): the same text,
        # folded at C speed rather than a character at a time (~30 µs a question).
        return folded
    return "".join(c.casefold() if len(c.casefold()) == 1 else c for c in text)


def _spaced(pattern: re.Pattern[str], text: str) -> str:
    return pattern.sub(lambda m: " " * len(m.group(0)), text)


def unread_spans(text: str, whole: str) -> list[tuple[int, int]]:
    """Spans of ``text`` (the question with every read phrase blanked out) holding words
    no axis read, neighbours in ``whole`` (the question as asked) joined into one."""
    for read_by_code in (LATEST, EARLIEST, MOST, _RECORD_ID):  # "most recent" before "most"
        # Which end of the set ("the most recent", "the oldest", "die meisten"), read by
        # code from every record of it (loop/sets.py), and a record's own id
        # ("ann-000123", one record): neither narrows the set.
        text = _spaced(read_by_code, text)
    found = [m.span() for m in _LATIN_WORD.finditer(text) if not known_word(m.group(0))]
    found += [m.span() for m in _CJK_RUN.finditer(_spaced(_PARTICLES, _spaced(_PIECES, text)))]
    spans: list[tuple[int, int]] = []
    for start, end in sorted(found):
        gap = _spaced(_PARTICLES, whole[spans[-1][1] : start]) if spans else ""
        if spans and _JOINED.fullmatch(gap):
            spans[-1] = (spans[-1][0], end)
        else:
            spans.append((start, end))
    return spans
