"""The narration code builds from the anchors, when nothing the model wrote may be said.

A disobedient model degrades to this, never to silence: one sentence per
anchor, counts only through slots (rendered per grade like the model's), in
the turn's locale. Population and shown subset get separate sentences, an
unknown count a sentence with no number in it, an absence only the sentence
its cause allows. Every sentence here passes the narration guard on the
evidence that produced its anchor (a test holds it to that).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from beacon.adjudication import Counted, Grade
from beacon.lexicon.copy import say
from beacon.lexicon.narration import (
    COUNT,
    COUNTERS,
    ENUMERATED,
    ENUMERATED_PARTIAL,
    FIELD_NAMES,
    FIXED,
    GENERIC,
    NOUNS,
    SHOWN,
    SHOWN_UNCOUNTED,
    SOURCES,
    SUBJECT_NOUNS,
    THE_SOURCE,
    WHICH_PROJECT,
    Plural,
)
from beacon.lexicon.plurals import Forms, plural
from beacon.wire.tools import tool_spec


def counted_key(record: Mapping[str, Any]) -> str:
    """What a count counted: the tool's own records, else what its subject names, else
    results in general (a tool the tables do not know is never named by its name)."""
    spec = tool_spec(record.get("tool"))
    if spec is not None and spec.noun is not None:
        return spec.noun
    subject = str(record.get("subject", ""))
    return next((key for key, words in SUBJECT_NOUNS if words.search(subject)), GENERIC)


def _counter(key: str, locale: str) -> str:
    counters = COUNTERS.get(locale, {})
    return counters.get(key, counters.get(GENERIC, ""))


def _with_object_particle(word: str) -> str:
    """Korean's object particle after ``word``: 을 after a final consonant, else 를."""
    last = ord(word[-1]) - 0xAC00 if word else -1
    return word + ("을" if 0 <= last < 11172 and last % 28 else "를")


def counted_noun(record: Mapping[str, Any], locale: str, count: float | None = None) -> str:
    """The noun phrase for what a count counted, in the form ``count`` takes."""
    return plural(say_forms(NOUNS[counted_key(record)], locale), count, locale)


def say_forms(table: Plural, locale: str) -> Forms:
    return table.get(locale, table["en"])


def _count_sentence(
    record: Mapping[str, Any], names: Mapping[str, str], locale: str, slot: Counted | None
) -> str:
    placeholder = "{{count:" + str(record["slot"]) + "}}"
    project = names.get(str(record.get("project_id"))) or say(THE_SOURCE, locale)
    count = slot.value if slot is not None else None
    return say(
        COUNT,
        locale,
        slot=placeholder,
        noun=counted_noun(record, locale, count),
        project=project,
        counter=_counter(counted_key(record), locale),
    )


def _shown_sentence(record: Mapping[str, Any], locale: str, slot: Counted | None) -> str | None:
    """The shown-set sentence for a shown_subset record, None when the cards are the set.
    Without the slot's values (a caller that has none) it is said, in the general form."""
    if slot is not None and (slot.shown == 0 or slot.wholly_shown):
        return None  # no card to speak of, or the cards are the whole set
    grade = slot.grade.value if slot is not None else Grade.EXACT.value
    counter = _counter(counted_key(record), locale)
    forms = say_forms(SHOWN[grade], locale)
    return plural(forms, slot.shown if slot is not None else None, locale).format(
        n="{{shown:" + str(record["slot"]) + "}}",
        counter=counter,
        counter_obj=_with_object_particle(counter),
    )


def _enumeration_sentence(record: Mapping[str, Any], locale: str) -> str:
    members = ", ".join(str(m) for m in record.get("members", []))
    table = ENUMERATED if record.get("complete") else ENUMERATED_PARTIAL
    field = str(record.get("field", ""))
    named = say(FIELD_NAMES[field], locale) if field in FIELD_NAMES else field
    return say(table, locale, field=named, members=members)


def _folded(text: str) -> str:
    return "".join(text.casefold().split())


def _names_a_project(question: str, names: Iterable[str]) -> bool:
    asked = _folded(question)
    return any(_folded(name) and _folded(name) in asked for name in names)


def narrate(
    records: Sequence[Mapping[str, Any]],
    locale: str,
    *,
    projects: Mapping[str, str] | None = None,
    question: str = "",
    slots: Mapping[str, Counted] | None = None,
) -> list[str]:
    """One sentence per anchor record (the same records the answer call received).

    With ``slots`` (the graded values the server will render), nouns agree with their
    numbers and the shown-set sentence is said only where the cards are fewer than the
    set; without them every noun takes its general form and every shown set is said."""
    names = dict(projects or {})
    values = dict(slots or {})
    if not records:
        # "Which project?" only when the question named none: a question that named one
        # and earned no evidence is not answered by asking for the project again.
        if not names or _names_a_project(question, names.values()):
            return []
        return [say(WHICH_PROJECT, locale, projects=", ".join(names.values()))]
    # With an exact aggregate, a companion listing only supplies the cards.
    has_aggregate = any(r.get("aggregate") and r.get("kind") == "exact_count" for r in records)
    sentences: list[str] = []
    for record in records:
        kind = str(record.get("kind"))
        slot = values.get(str(record.get("slot")))
        if kind in ("exact_count", "lower_bound"):
            if not (has_aggregate and not record.get("aggregate")):
                sentences.append(_count_sentence(record, names, locale, slot))
        elif kind == "shown_subset":
            shown = _shown_sentence(record, locale, slot)
            if shown is not None:
                sentences.append(shown)
        elif kind == "enumeration" and record.get("members"):
            sentences.append(_enumeration_sentence(record, locale))
        elif kind in FIXED:
            source = say(SOURCES[counted_key(record) if record.get("tool") else GENERIC], locale)
            sentences.append(say(FIXED[kind], locale, source=source))
            if kind == "unknown_count" and slot is not None and slot.shown > 0:
                sentences.append(say(SHOWN_UNCOUNTED, locale))
    # Two sources in the same state earn one sentence, not the same one twice.
    return list(dict.fromkeys(sentences))
