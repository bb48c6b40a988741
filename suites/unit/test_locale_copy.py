"""Answers in one language: every sentence code (and the embedded model) writes exists in
the five locales, and a count sentence names what was counted."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from types import ModuleType
from typing import Any

import pytest

import beacon.lexicon.copy as loop_copy
import beacon.lexicon.denials as denials
import beacon.lexicon.narration as narration_copy
import stub_server.rules_copy as rules_copy
from beacon.loop.fallback_narrator import narrate as code_narrate
from stub_server.rules_narrator import narrate as model_narrate

LOCALES = {"en", "de", "es", "ko", "ja"}
# English filler that must not appear in an answer written for another locale.
ENGLISH = re.compile(r"\b(the|has|have|these|are|is|shown|matching|records|count)\b", re.I)
HARBOR = {"prj-harbor-tower": "Harbor Tower"}
SLOT = re.compile(r"\{\{(?:count|shown):\w+\}\}")


def english_in(text: str) -> bool:
    """English filler outside the slots (the server writes those in the locale)."""
    return bool(ENGLISH.search(SLOT.sub("", text)))


def locale_tables(module: ModuleType) -> Iterator[tuple[str, Mapping[str, Any]]]:
    """Every copy table of a module: locale → text, or value → (locale → text)."""
    for name, value in vars(module).items():
        if not isinstance(value, Mapping) or not value or name.startswith("_"):
            continue
        inner = list(value.values())
        if all(isinstance(v, str) for v in inner) and "en" in value:
            yield name, value
        elif all(isinstance(v, Mapping) and "en" in v for v in inner):
            for key, table in value.items():
                yield f"{name}[{key}]", table


# The sentence modules: the lexicon's copy (every table of the package is checked for its
# locales by test_lexicon_locales.py) and the stub's own copy (a foreign model's, kept apart).
@pytest.mark.parametrize(
    "module", [loop_copy, narration_copy, rules_copy, denials], ids=lambda m: m.__name__
)
def test_every_copy_table_has_the_five_locales(module: ModuleType) -> None:
    tables = dict(locale_tables(module))
    assert len(tables) >= 4, sorted(tables)
    for name, table in tables.items():
        assert set(table) == LOCALES, name
        for locale in LOCALES - {"en"}:
            text = str(table[locale])
            if len(text.split()) > 3:  # a sentence, not a proper noun like "BIM"
                assert text != table["en"] and not english_in(text), (name, locale)


def aggregate_record(subject: str) -> dict[str, Any]:
    return {
        "kind": "exact_count",
        "slot": "c1",
        "tool": "query_data",
        "project_id": "prj-harbor-tower",
        "subject": subject,
        "aggregate": True,
    }


PANORAMAS = {
    "en": "panoramas",
    "de": "Panoramen",
    "es": "panorámicas",
    "ko": "파노라마",
    "ja": "パノラマ",
}


@pytest.mark.parametrize("locale", sorted(LOCALES))
def test_the_code_built_count_sentence_names_what_was_counted(locale: str) -> None:
    record = aggregate_record("How many panoramas are in Harbor Tower?")
    (sentence,) = code_narrate([record], locale, projects=HARBOR)
    assert "{{count:c1}}" in sentence and PANORAMAS[locale] in sentence
    assert "Harbor Tower" in sentence and "count you asked for" not in sentence


def test_the_code_built_enumeration_names_its_field_in_the_locale() -> None:
    record = {
        "kind": "enumeration",
        "slot": "c1",
        "field": "company",
        "members": ["Apex Scaffolding", "Summit Steel"],
        "complete": True,
    }
    (german,) = code_narrate([record], "de", projects=HARBOR)
    assert "Firmen" in german and "company" not in german and "Summit Steel" in german


def test_the_code_asks_for_no_project_when_the_question_named_one() -> None:
    asked = code_narrate([], "de", projects=HARBOR, question="Harbor Tower asdf")
    assert asked == []
    unnamed = code_narrate([], "de", projects=HARBOR, question="Wie viele Befunde?")
    assert unnamed == ["Welches Projekt meinen Sie? Ich sehe: Harbor Tower."]


def answer_call(locale: str, anchors: list[dict[str, Any]], question: str) -> list[dict[str, Any]]:
    context = {
        "projects": [{"id": "prj-harbor-tower", "name": "Harbor Tower"}],
        "view_context": {},
        "answer_locale": locale,
    }
    return [
        {"role": "system", "content": "```json\n" + json.dumps(context) + "\n```"},
        {"role": "system", "content": "```json\n" + json.dumps({"anchors": anchors}) + "\n```"},
        {"role": "user", "content": question},
    ]


# (noun, level) as each locale writes "open safety findings on level 3".
FINDINGS_ON_LEVEL_3 = {
    "en": ("findings", "on level 3"),
    "de": ("Befunde", "Ebene 3"),
    "es": ("hallazgos", "nivel 3"),
    "ko": ("지적 사항", "3층"),
    "ja": ("指摘", "3階"),
}


@pytest.mark.parametrize("locale", sorted(LOCALES))
def test_the_embedded_model_narrates_in_the_requested_locale_naming_the_count(
    locale: str,
) -> None:
    anchors = [
        aggregate_record("How many open safety findings on level 3?"),
        {"kind": "shown_subset", "slot": "c1"},
    ]
    said = model_narrate(answer_call(locale, anchors, "any question"))
    noun, level = FINDINGS_ON_LEVEL_3[locale]
    assert "{{count:c1}}" in said and "{{shown:c1}}" in said
    assert noun in said and level in said
    if locale != "en":
        assert not english_in(said), said


def test_without_a_locale_the_embedded_model_answers_in_the_questions_language() -> None:
    messages = answer_call("en", [], "Wie viele Befunde hat Harbor Tower?")
    del_locale = json.loads(messages[0]["content"].strip("`json\n"))
    del del_locale["answer_locale"]
    messages[0]["content"] = "```json\n" + json.dumps(del_locale) + "\n```"
    said = model_narrate(messages)
    assert "Harbor Tower" in said and not english_in(said)
