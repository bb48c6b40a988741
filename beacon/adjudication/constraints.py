"""The asked set: every constraint a question names, read by code, and whether a call applied it.

A grade is honest only for the query that ran. When the planner drops "last
week" or an inspector, the count is exact — of another set — and saying it
as the answer is the lie Beacon exists to prevent, one layer above the
narration guard. So code reads the question itself (``read_constraints``, five
locales, words from ``beacon.lexicon``) on the axes the tool table knows
(project, level, status, category, company, kind, date, person, topic), and
after dispatch compares each constraint with the arguments that really went
out (``judge_scope``): **applied** when an argument the tool's row names for
that axis carries exactly that value (a date window to the day), **unapplied**
otherwise. A condition no tool knows (a time of day) is read so it can be
disclosed, and so is every word no axis read ("overdue", "my", "期限切れ":
``leftover.py``): a word the lexicon does not know to leave a set as it is, is
taken to narrow it.

Several values on one axis ("level 3 vs level 4") are alternatives: a call
applying one of them has applied the axis; the side no call applied is the
turn's to disclose (``missing_sides``).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import date
from typing import Any

from beacon.adjudication.leftover import fold_keep, free_subject, joining_word, unread_spans
from beacon.adjudication.qualified import level_ranges, qualified_phrase
from beacon.lexicon.date_bounds import UnreadDate, read_asked_dates
from beacon.lexicon.dates import Window
from beacon.lexicon.levels import THIS_LEVEL
from beacon.lexicon.words import (
    CATEGORIES,
    COMPANY_WORDS,
    KINDS,
    LEVEL,
    LEVEL_LIST,
    RECORDS,
    STATUSES,
    TOPICS,
    first_match,
    fold,
)
from beacon.wire.tools import ToolSpec, tool_spec

TIME_OF_DAY = "time_of_day"
# A constraint's value when nothing here stands for it: a date without a window
# (lexicon/date_bounds.py), a phrase a qualifier makes another set's ("not open").
UNREAD = "unread"
VIEW = "view"  # "this level": the level the host's view shows, or unread if it shows none


@dataclass(frozen=True, slots=True)
class Constraint:
    """One thing the question limits its set by: the axis, the value a tool would take
    (a project id, a level number, ``2026-11-23..2026-11-29``), and the words that said it."""

    axis: str
    value: str
    phrase: str
    window: Window | None = None
    hours: tuple[str, str] | None = None  # a time of day: inclusive "HH:MM" ends
    # Words no axis read (leftover.py): each must be carried on its own, never one
    # side of alternatives, never asked for by a correction.
    leftover: bool = False


@dataclass(frozen=True, slots=True)
class Scope:
    """One call's verdict: which of the question's constraints its arguments carried."""

    applied: tuple[Constraint, ...]
    unapplied: tuple[Constraint, ...]
    added: tuple[Constraint, ...] = ()  # filters the question never named (added.py)

    @property
    def whole(self) -> bool:
        """The call counted the asked set: nothing left out, nothing added."""
        return not self.unapplied and not self.added

    def applying(self, axis: str) -> Scope:
        """The same verdict with ``axis`` applied by code itself (a field read of the one
        record the question names: "where is Maple Clinic?" reads that project's row)."""
        moved = tuple(c for c in self.unapplied if c.axis == axis)
        kept = tuple(c for c in self.unapplied if c.axis != axis)
        return Scope((*self.applied, *moved), kept, self.added)

    def wire(self) -> dict[str, list[dict[str, str]]]:
        return {
            "applied": [{"axis": c.axis, "value": c.value} for c in self.applied],
            "unapplied": [{"axis": c.axis, "phrase": c.phrase} for c in self.unapplied],
        }


UNSCOPED = Scope((), ())

# A proper name as typed: two or three capitalised Latin words ("Dana Whitfield",
# "Ji-woo Park", "Keystone Concrete"), a possessive dropped.
_NAME_WORD = r"[A-ZÀ-Þ][a-zß-ÿ'’]*(?:-[A-Za-zß-ÿ]+)?"
_NAME_RUN = re.compile(
    rf"(?<![A-Za-zß-ÿ-])({_NAME_WORD}(?:\s+{_NAME_WORD}){{1,3}})(?![A-Za-zß-ÿ-])"
)
_LATIN_EDGE = "A-Za-z0-9ß-ÿ"


def _blank(text: str, start: int, end: int) -> str:
    """The text with [start, end) spaced out: a read span is never read twice."""
    return text[:start] + " " * (end - start) + text[end:]


def _project(text: str, projects: Iterable[Mapping[str, str]]) -> tuple[Constraint, str] | None:
    folded = text.casefold()
    best: tuple[Mapping[str, str], re.Match[str]] | None = None
    for project in projects:
        name = project.get("name", "")
        words = [re.escape(w) for w in name.casefold().split()]
        if not words or not project.get("id"):
            continue
        # Latin edges only: "Harbor Towerの3階" names the project, the kana do not join it.
        body = r"\s*".join(words)
        match = re.search(rf"(?<![{_LATIN_EDGE}]){body}(?![{_LATIN_EDGE}])", folded)
        if match and (best is None or len(match.group(0)) > len(best[1].group(0))):
            best = (project, match)
    if best is None:
        return None
    project, match = best
    phrase = text[match.start() : match.end()]
    return Constraint("project", project["id"], phrase), _blank(text, match.start(), match.end())


def _dates(text: str, today: date) -> tuple[list[Constraint], str]:
    found = []
    for item in read_asked_dates(text, today):
        if isinstance(item, UnreadDate):
            # A date the set is limited by that no window stands for: no call can be
            # shown to carry it, so no count of this question is of the asked set.
            found.append(Constraint("date", UNREAD, item.phrase))
            text = _blank(text, item.start_at, item.end_at)
            continue
        window = item.window
        value = f"{window.start or ''}..{window.end or ''}"
        if item.time_of_day:
            value = "{}-{}".format(*item.hours) if item.hours else TIME_OF_DAY
        found.append(Constraint("date", value, item.phrase, window, item.hours))
        text = _blank(text, item.start_at, item.end_at)
    return found, text


def _names(text: str) -> tuple[list[Constraint], str]:
    """People and companies, by the shape of a name; a company by its trade word."""
    found: list[Constraint] = []
    for run in _NAME_RUN.finditer(text):
        words = run.group(1).split()
        while words and joining_word(words[0]):
            words.pop(0)
        # A trade word ends a company's name ("Apex Scaffolding"), not a topic.
        while words and joining_word(words[-1]) and fold(words[-1]) not in COMPANY_WORDS:
            words.pop()
        if len(words) < 2 or any(joining_word(w) for w in words[:-1]):
            continue
        name = re.sub(r"['’]s$", "", " ".join(words))
        axis = "company" if fold(name.split()[-1]) in COMPANY_WORDS else "person"
        found.append(Constraint(axis, name, name))
        start = text.index(words[0], run.start())
        text = _blank(text, start, start + len(" ".join(words)))  # "Concrete's" whole
    return found, text


def _levels(text: str) -> tuple[list[Constraint], str]:
    found = []
    for listed in LEVEL_LIST.finditer(text):  # "levels 3, 4 and 5": a level each
        word, numbers = listed.group(1), re.findall(r"\d{1,3}", listed.group(2))
        found += [Constraint("level", str(int(n)), f"{word} {n}") for n in numbers]
        text = _blank(text, listed.start(), listed.end())
    for match in LEVEL.finditer(text):  # blanking keeps every place: the walk stays valid
        number = next(int(g) for g in match.groups() if g)
        found.append(Constraint("level", str(number), match.group(0).strip()))
        text = _blank(text, match.start(), match.end())
    for match in THIS_LEVEL.finditer(text):  # the view's level: gather reads which one
        found.append(Constraint("level", VIEW, match.group(0).strip()))
        text = _blank(text, match.start(), match.end())
    return found, text


def _table(
    axis: str, table: Mapping[str, tuple[str, ...]], text: str
) -> tuple[list[Constraint], str]:
    found = []
    while (hit := first_match(table, fold_keep(text))) is not None:
        value, match = hit
        found.append(Constraint(axis, value, text[match.start() : match.end()].strip()))
        text = _blank(text, match.start(), match.end())
    return found, text


def read_constraints(
    question: str, *, projects: Iterable[Mapping[str, str]], today: date, records: str = ""
) -> tuple[Constraint, ...]:
    """Every constraint ``question`` names on the tool table's axes, in reading order by axis:
    project, date, company/person, level, status, category, kind, topic. ``records``: the
    record kind a chat's follow-up counts when it names none ("And on level 4?")."""
    text = whole = unicodedata.normalize("NFKC", question)  # ``text`` loses what is read
    found: list[Constraint] = []
    # Every project of the directory the question names ("Maple Clinic compared to Cedar
    # School": two sides of one axis); none is left to read as a person's name.
    while (project := _project(text, projects)) is not None:
        found.append(project[0])
        text = project[1]
    found.sort(key=lambda c: whole.find(c.phrase))  # as named: the first is the subject
    asked = asked_records(question)
    record_kind = asked.value if asked is not None else records or None
    dates, text = _dates(text, today)
    if record_kind != "panoramas":
        # Only a capture carries its time of day: for photos and findings (a day only)
        # a time of day has no hours any tool could take, so it is disclosed, not asked for.
        dates = [replace(c, value=TIME_OF_DAY, hours=None) if c.hours else c for c in dates]
    names, text = _names(text)
    levels, text = _levels(text)
    topics, text = _table("topic", TOPICS, text)
    statuses, text = _table("status", STATUSES, text)
    categories, text = _table("category", CATEGORIES, text)
    kinds, text = _table("kind", KINDS, text)
    if record_kind in ("photos", "documents"):
        # A photo or a document has no category or kind: those words are what it shows.
        topics += [Constraint("topic", c.value, c.phrase) for c in categories + kinds]
        categories, kinds = [], []
    found += dates + names + levels + statuses + categories + kinds + topics
    if not topics and (free := free_subject(text)) is not None:
        found.append(Constraint("topic", *free))
        text = _blank_phrase(text, free[1])
    for i, c in enumerate(found):  # "not open", "above level 3": another set's phrase
        if c.value != UNREAD and (phrase := qualified_phrase(c.axis, c.phrase, whole)):
            found[i] = Constraint(c.axis, UNREAD, phrase)
            text = _blank_phrase(text, phrase, whole)
    for phrase in level_ranges(text):
        found.append(Constraint("level", UNREAD, phrase))
        text = _blank_phrase(text, phrase)
    if record_kind is None and all(c.axis != "project" for c in found):
        # Records of no kind the lexicon knows, in no project of the directory (a third
        # party's "commits in the log"): its nouns are not known words, so no word left
        # over can be told from the noun counted.
        return tuple(found)
    searched = record_kind in ("photos", "documents")
    return (*found, *_leftovers(text, whole, searched=searched))


def _blank_phrase(text: str, phrase: str, within: str | None = None) -> str:
    """``text`` with ``phrase``'s first place (in ``within``, the same length) blanked."""
    at = (text if within is None else within).find(phrase)
    return text if at < 0 else _blank(text, at, at + len(phrase))


def _leftovers(text: str, whole: str, *, searched: bool) -> list[Constraint]:
    """What no axis read (leftover.py), a constraint each: unread, never applied — or, in a
    photo or document search, what it shows ("cracked concrete photos"), which the
    search's query carries or not."""
    phrases = [whole[start:end] for start, end in unread_spans(text, whole)]
    return [Constraint("topic", fold(p) if searched else UNREAD, p, leftover=True) for p in phrases]


def asked_records(question: str) -> Constraint | None:
    """What the question counts or lists, as it names it ("findings": the value is the
    record kind, ``photos``, ``findings``, …), or None (record_kinds.py judges it)."""
    text = unicodedata.normalize("NFKC", question)
    hit = first_match(RECORDS, fold_keep(text))
    if hit is None:
        return None
    kind, match = hit
    return Constraint("kind", kind, text[match.start() : match.end()])


def _same(sent: Any, value: str) -> bool:
    if sent is None or isinstance(sent, bool):
        return False
    return _norm(str(sent)) == _norm(value)


def _norm(value: str) -> str:
    return re.sub(r"[\s_-]+", " ", fold(value)).strip()


def _stem(word: str) -> str:
    return word[:-1] if len(word) > 3 and word.endswith("s") else word


def _carried(constraint: Constraint, arguments: Mapping[str, Any]) -> bool:
    """Whether ``arguments`` carry exactly this constraint (the tool can take its axis)."""
    if constraint.axis == "level":
        return _same(arguments.get("level_number"), constraint.value)
    if constraint.axis == "project":
        return arguments.get("project_id") == constraint.value
    if constraint.axis == "person":
        return _same(arguments.get("inspector"), constraint.value)
    if constraint.hours is not None:
        first, last = constraint.hours
        return arguments.get("time_from") == first and arguments.get("time_to") == last
    if constraint.axis == "date":
        window = constraint.window
        if window is None or (window.start is None and window.end is None):
            return False
        start = window.start.isoformat() if window.start else None
        end = window.end.isoformat() if window.end else None
        return arguments.get("date_from") == start and arguments.get("date_to") == end
    if constraint.axis == "topic":
        query = arguments.get("query")
        if not isinstance(query, str):
            return False
        sent = {_stem(w) for w in re.findall(r"\w+", fold(query))}
        wanted = {_stem(w) for w in re.findall(r"\w+", fold(constraint.value))}
        return bool(wanted) and wanted <= sent
    return _same(arguments.get(constraint.axis), constraint.value)


def _can(spec: ToolSpec | None, constraint: Constraint) -> bool:
    """Whether the tool's row names arguments that carry this constraint."""
    hours = constraint.hours is not None
    return spec is not None and spec.applying(constraint.axis, hours=hours) is not None


def judge_scope(
    constraints: Sequence[Constraint], tool: str, arguments: Mapping[str, Any]
) -> Scope:
    """What one call, as sent, applied of the question's constraints."""
    spec = tool_spec(tool)
    applied: list[Constraint] = []
    unapplied: list[Constraint] = []
    for key in dict.fromkeys(_side_group(c) for c in constraints):
        group = [c for c in constraints if _side_group(c) == key]
        # An unread phrase is never one side of alternatives another call's side answers:
        # whatever else the call carried on its axis, it left this out.
        unapplied += [c for c in group if c.value == UNREAD]
        group = [c for c in group if c.value != UNREAD]
        if not group:
            continue
        hits = [c for c in group if _can(spec, c) and _carried(c, arguments)]
        if hits:
            applied += hits  # one side of alternatives; the others are other calls' sides
        else:
            unapplied += group
    return Scope(tuple(applied), tuple(unapplied))


def _side_group(constraint: Constraint) -> str:
    """Constraints of one group are alternatives; a leftover phrase stands alone."""
    return f"leftover:{constraint.phrase}" if constraint.leftover else constraint.axis


def corrective_arguments(scope: Scope, tool: str) -> dict[str, Any]:
    """The arguments that would apply what ``tool`` left out and can take, or ``{}``.

    An axis with alternatives is left alone (which side was meant is the
    planner's to choose), and so is a window with an open end or a time of day.
    """
    spec = tool_spec(tool)
    if spec is None:
        return {}
    fixes: dict[str, Any] = {}
    axes = [c.axis for c in scope.unapplied if not c.leftover]
    for constraint in scope.unapplied:
        if axes.count(constraint.axis) > 1 or constraint.value == UNREAD or constraint.leftover:
            continue  # which side was meant, or what no argument here can say
        if not _can(spec, constraint):
            continue
        fixes.update(_arguments_for(constraint))
    return fixes


def _arguments_for(constraint: Constraint) -> dict[str, Any]:
    axis, value = constraint.axis, constraint.value
    if axis == "level":
        return {"level_number": int(value)}
    if axis == "project":
        return {"project_id": value}
    if axis == "person":
        return {"inspector": value}
    if axis == "topic":
        return {"query": value}
    if constraint.hours is not None:
        return {"time_from": constraint.hours[0], "time_to": constraint.hours[1]}
    if axis == "date":
        window = constraint.window
        if window is None or window.start is None or window.end is None:
            return {}
        return {"date_from": window.start.isoformat(), "date_to": window.end.isoformat()}
    return {axis: value}


def missing_sides(
    constraints: Sequence[Constraint], scopes: Iterable[Scope]
) -> tuple[Constraint, ...]:
    """Alternatives on one axis that no call applied ("level 3 vs level 4", 4 never counted),
    when some call applied another side of the same axis."""
    scopes = list(scopes)
    applied = {c for s in scopes for c in s.applied}
    axes = {c.axis for c in applied}
    return tuple(c for c in constraints if c.axis in axes and c not in applied)
