"""Asked in German with no locale, Beacon answers in German (the question's own
language), naming what it counted; asked with `locale: en`, in English."""

from __future__ import annotations

import pytest

from beacon.cli.ask import run_turn
from harness.stack import Stack

pytestmark = pytest.mark.e2e
QUESTION = "Wie viele offene Sicherheitsmängel gibt es in Harbor Tower?"


def answer(stack: Stack, **fields: str) -> str:
    events = run_turn(stack.chat_url, {"message": QUESTION, **fields}, token=stack.token())
    assert events[-1].event == "done"
    # The start frame says which language the answer is written in, asked or not.
    assert events[0].json()["locale"] == fields.get("locale", "de")
    return str(events[-1].json()["answer"])


def test_a_german_question_without_a_locale_is_answered_in_german(stack: Stack) -> None:
    text = answer(stack)
    assert "genau" in text and "Befunde" in text
    assert "exactly" not in text and "findings" not in text


def test_a_named_locale_wins_over_the_question_language(stack: Stack) -> None:
    text = answer(stack, locale="en")
    assert "exactly" in text and "findings" in text
    assert "genau" not in text
