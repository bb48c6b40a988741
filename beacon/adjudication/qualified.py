"""A negation, an exclusion or a comparison that makes a constraint's phrase another
set's ("not open", "anyone but Dana Whitfield", "above level 3", "3階以上"), and
level ranges no single level stands for ("levels 2 to 4"): the constraint reader
reads each as unread, which no call can be shown to carry (constraints.py).
The words are the lexicon's (``beacon.lexicon.qualifiers``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from beacon.lexicon import qualifiers as q


def _words(table: Mapping[str, tuple[str, ...]], *, after: bool) -> str:
    words = {
        w for locale, ws in table.items() for w in ws if (locale in q.AFTER_THE_PHRASE) == after
    }
    return "|".join(
        re.escape(w).replace(r"\ ", r"\s+") for w in sorted(words, key=len, reverse=True)
    )


_LINKS = rf"(?:(?:{'|'.join(q.LINKS)})\s+)?"
_EXCLUDED = re.compile(
    rf"(?<!\w)(?:{_words(q.EXCLUDING, after=False)})[\s-]+{_LINKS}$", re.IGNORECASE
)
_COMPARED = re.compile(rf"(?<!\w)(?:{_words(q.COMPARING, after=False)})\s+{_LINKS}$", re.IGNORECASE)
_EXCLUDED_AFTER = re.compile(rf"\s*(?:{_words(q.EXCLUDING, after=True)})")
_COMPARED_AFTER = re.compile(rf"\s*(?:{_words(q.COMPARING, after=True)})")
_LEVEL_RANGE = re.compile(rf"(?<!\w)(?:{'|'.join(q.LEVEL_RANGES)})(?!\w)", re.IGNORECASE)
# The axes a qualifier turns into another set's; a project or a topic is not read so
# (a project's value is its id, which the loop reads), nor a date (date_bounds.py).
_QUALIFIABLE = frozenset({"level", "status", "person", "company", "category", "kind"})


def qualified_phrase(axis: str, phrase: str, question: str) -> str | None:
    """``phrase`` spelled with the qualifier that makes it another set's, or None."""
    if axis not in _QUALIFIABLE:
        return None
    at = question.find(phrase)
    if at < 0:
        return None
    end = at + len(phrase)
    level = axis == "level"
    before = _EXCLUDED.search(question, 0, at) or (
        _COMPARED.search(question, 0, at) if level else None
    )
    if before is not None:
        return question[before.start() : end]
    after = _EXCLUDED_AFTER.match(question, end) or (
        _COMPARED_AFTER.match(question, end) if level else None
    )
    return None if after is None else question[at : after.end()].strip()


def level_ranges(text: str) -> list[str]:
    """The level ranges ``text`` still names once the single levels are read."""
    return [m.group(0).strip() for m in _LEVEL_RANGE.finditer(text)]
