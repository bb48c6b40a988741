"""``beacon-rules`` as responder: sentences around the anchors' slots.

One sentence per anchor, so population and returned examples never share a
sentence (subject separation), and an unknown count gets a sentence with no
number in it at all. Written in the turn's ``answer_locale`` (else the question's
own language), naming what each count counted; the wording is ``rules_copy``.
"""

from __future__ import annotations

import calendar
from dataclasses import replace
from typing import Any

from beacon.lexicon.dates import MONTHS
from stub_server.rules_copy import (
    AGGREGATE,
    AND,
    BEHIND,
    COMPANY,
    COUNTERS,
    EARLIEST,
    ENUMERATED,
    ENUMERATED_NONE,
    ENUMERATED_PARTIAL,
    FIELD_NOUNS,
    FIXED,
    HOURS,
    INSPECTOR,
    KIND_WORDS,
    LATEST,
    LEVEL,
    LOCATED,
    MONTH,
    MOST,
    MOST_TIED,
    NO_EVIDENCE,
    NOUNS,
    NOUNS_ONE,
    ON_PLAN,
    PHOTO_MATCHES,
    PHOTO_MATCHES_ONE,
    PHOTO_SEARCH,
    PHOTO_SEARCH_ONE,
    ROW_CAP,
    SHOWN,
    SHOWN_ONE,
    STATUS_ONE,
    STATUS_WORDS,
    THE_PROJECT,
    UNSETTLED,
    WHAT_I_CAN_DO,
    WHERE,
    WHICH_PROJECT,
    say,
    say_counted,
)
from stub_server.rules_model import _block_value, _directory, _json_blocks, _last_user
from stub_server.rules_reading import RECORD_ID, Reading, language, read

Anchor = dict[str, Any]
LOCALES = ("en", "de", "es", "ko", "ja")


def _anchors(messages: list[dict[str, Any]]) -> list[Anchor] | None:
    for block in _json_blocks(messages):
        anchors = block.get("anchors")
        if isinstance(anchors, list):
            return [a for a in anchors if isinstance(a, dict)]
    return None


def answer_locale(messages: list[dict[str, Any]], question: str) -> str:
    """The locale the turn context asks for, else the question's own language."""
    asked = _block_value(messages, "answer_locale")
    return asked if isinstance(asked, str) and asked in LOCALES else language(question)


def what_was_counted(reading: Reading, locale: str, *, one: bool = False) -> str:
    """The counted population in words: "open safety findings on level 3", in the locale
    (``one``: in the singular, where the locale has one)."""
    entity = reading.entity if reading.entity is not None and reading.entity in NOUNS else "records"
    noun = say((NOUNS_ONE if one else NOUNS)[entity], locale)
    qualities: list[str] = []
    if entity == "findings":
        for table, value in ((STATUS_WORDS, reading.status), (KIND_WORDS, reading.kind)):
            if value is not None:
                table = STATUS_ONE if one and table is STATUS_WORDS else table
                qualities.append(say(table[value], locale))
        if reading.category is not None:
            qualities.append(reading.category)  # the upstream's own value, as it came back
    company = reading.company if entity == "findings" else None
    inspector = reading.inspector if entity == "findings" else None
    level = say(LEVEL, locale, n=reading.level) if reading.level is not None else ""
    if reading.month is not None:
        year, month = reading.month
        name = MONTHS.get(locale, MONTHS["en"])[month - 1]
        name = name.capitalize() if locale in ("en", "de") else name
        last = calendar.monthrange(year, month)[1]
        dated = say(MONTH, locale, name=name, year=year, month=month, last=last)
        level = dated + level if locale in ("ko", "ja") else level + dated
    if reading.hours is not None and entity == "panoramas":
        timed = say(HOURS, locale, first=reading.hours[0], last=reading.hours[1])
        level = timed + level if locale in ("ko", "ja") else level + timed
    by = say(COMPANY, locale, company=company) if company is not None else ""
    if inspector is not None:
        by += say(INSPECTOR, locale, inspector=inspector)  # whose findings were counted
    if locale == "en":
        return " ".join([*qualities, noun]) + by + level
    if locale in ("de", "es"):
        listed = f" ({', '.join(qualities)})" if qualities else ""
        return noun + listed + by + level
    if locale == "ko":
        return level + by + " ".join([*qualities, noun])
    return level + by + "・".join(qualities) + ("の" if qualities else "") + noun


def _counter(entity: str | None, locale: str) -> str:
    table = COUNTERS.get(locale, {})
    return table.get(entity or "*", table.get("*", ""))


def _count_sentences(
    a: Anchor,
    project: str,
    bound: bool,
    locale: str,
    directory: list[dict[str, str]],
    question: str,
) -> list[str]:
    slot = "{{count:" + str(a["slot"]) + "}}"
    subject = str(a.get("subject", ""))
    plural = a.get("plural")
    if a.get("tool") == "search_photos":
        if subject.casefold() in question.casefold():
            return [
                say_counted(
                    PHOTO_SEARCH, PHOTO_SEARCH_ONE, locale, plural,
                    project=project, slot=slot, subject=subject,
                )
            ]  # fmt: skip
        return [say_counted(PHOTO_MATCHES, PHOTO_MATCHES_ONE, locale, plural, project=project,
                            slot=slot)]  # fmt: skip
    reading = read(subject, directory)
    if a.get("tool") == "get_progress_summary":
        reading = replace(reading, entity="levels")  # its rows are levels, not trades
    what = what_was_counted(reading, locale, one=plural == "one")
    counter = _counter(reading.entity, locale)
    sentence = say(AGGREGATE, locale, project=project, slot=slot, what=what, counter=counter)
    if bound and not a.get("aggregate"):
        return [sentence, say(ROW_CAP, locale)]
    return [sentence]


def _listed(members: list[str], locale: str) -> str:
    if locale in ("ko", "ja"):
        return AND[locale].join(members)
    joiner = AND.get(locale, AND["en"])
    return members[0] if len(members) == 1 else ", ".join(members[:-1]) + joiner + members[-1]


def _extreme_sentence(a: Anchor, noun: str, locale: str, project: str) -> str:
    leaders = [str(m) for m in a.get("leaders", [])]
    extreme = a.get("extreme")
    if extreme == "behind" and a.get("complete"):
        table = BEHIND if leaders else ON_PLAN
        return say(table, locale, listed=_listed(leaders, locale) if leaders else "")
    if not leaders:
        return say(UNSETTLED, locale)
    if extreme == "where":
        return say(LOCATED, locale, project=project, listed=_listed(leaders, locale))
    if extreme in ("latest", "earliest"):
        return say(LATEST if extreme == "latest" else EARLIEST, locale, listed=leaders[0])
    table = MOST if len(leaders) == 1 else MOST_TIED
    return say(table, locale, noun=noun, listed=_listed(leaders, locale))


def _enumeration_sentence(a: Anchor, locale: str, project: str = "") -> str:
    members = [str(m) for m in a.get("members", [])]
    field = str(a.get("field"))
    noun = say(FIELD_NOUNS[field], locale) if field in FIELD_NOUNS else field
    if a.get("extreme"):
        return _extreme_sentence(a, noun, locale, project)
    where = say(WHERE.get(str(a.get("relation")), WHERE["*"]), locale)
    if not members:
        return say(ENUMERATED_NONE, locale, noun=noun, where=where)
    table = ENUMERATED if a.get("complete") else ENUMERATED_PARTIAL
    listed = _listed(members, locale)
    return say(table, locale, noun=noun, Noun=noun.capitalize(), where=where, listed=listed)


def _fixed(a: Anchor, locale: str) -> str:
    return say(FIXED[str(a.get("kind"))], locale, tool=a.get("tool", "data"))


def _without_anchors(
    messages: list[dict[str, Any]], question: str, directory: list[dict[str, str]], locale: str
) -> str:
    named = read(question, directory).project
    if named is None:
        view = _block_value(messages, "view_context")
        view_id = view.get("project_id") if isinstance(view, dict) else None
        named = next((p for p in directory if p["id"] == view_id), None)
    if named is not None:
        return say(WHAT_I_CAN_DO, locale, project=named["name"])
    if directory:
        return say(WHICH_PROJECT, locale, listed=", ".join(p["name"] for p in directory))
    return say(NO_EVIDENCE, locale)


def _named_project(question: str, directory: list[dict[str, str]]) -> str | None:
    named = read(question, directory).project
    return named["name"] if named is not None else None


def narrate(messages: list[dict[str, Any]]) -> str:
    _, question = _last_user(messages)
    directory = _directory(messages)
    locale = answer_locale(messages, question)
    anchors = _anchors(messages) or []
    if not anchors:
        return _without_anchors(messages, question, directory, locale)
    # With an exact aggregate, a companion listing only supplies the cards.
    has_aggregate = any(a.get("aggregate") and a.get("kind") == "exact_count" for a in anchors)
    # "Where is …" is answered by the project's record: the directory's size is no answer.
    located = any(
        (a.get("extreme") == "where" and a.get("leaders"))
        or (a.get("extreme") == "behind" and a.get("complete"))
        for a in anchors
    )
    # "What is the status of ann-000123?": the record's field is the answer, not a count of 1.
    located = located or (
        RECORD_ID.search(question) is not None
        and any(a.get("kind") == "enumeration" for a in anchors)
    )
    names = {p["id"]: p["name"] for p in directory}
    sentences: list[str] = []
    for a in anchors:
        kind = a.get("kind")
        if kind in ("exact_count", "lower_bound", "shown_subset") and located:
            continue
        if kind in ("exact_count", "lower_bound"):
            if has_aggregate and not a.get("aggregate"):
                continue
            project = names.get(str(a.get("project_id"))) or say(THE_PROJECT, locale)
            bound = kind == "lower_bound"
            sentences.extend(_count_sentences(a, project, bound, locale, directory, question))
        elif kind == "shown_subset":
            shown = "{{shown:" + str(a["slot"]) + "}}"
            sentences.append(say_counted(SHOWN, SHOWN_ONE, locale, a.get("plural"), slot=shown))
        elif kind == "enumeration":
            where = names.get(str(a.get("project_id"))) or _named_project(question, directory)
            sentences.append(_enumeration_sentence(a, locale, where or say(THE_PROJECT, locale)))
        elif isinstance(kind, str) and kind in FIXED:
            sentences.append(_fixed(a, locale))
    return " ".join(s for s in sentences if s)
