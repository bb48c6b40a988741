"""The stub model's registered narrations: found by the exact stripped question, text and
chunks agreeing, forgotten one by one."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from stub_server.llm_narrations import Narration, NarrationBook, NarrationIn


def test_a_narration_registered_as_chunks_is_found_by_its_stripped_question_and_forgotten() -> None:
    book = NarrationBook()
    book.register(NarrationIn(question=" How many? ", chunks=["1", "2 findings"]))
    assert book.get("How many?") == Narration("12 findings", ("1", "2 findings"))
    assert book.questions() == ["How many?"]
    book.forget("How many?  ")
    assert book.get("How many?") is None and book.questions() == []


def test_a_narration_whose_text_differs_from_its_chunks_is_refused() -> None:
    with pytest.raises(ValidationError, match="concatenated"):
        NarrationIn(question="q", text="13", chunks=["1", "2"])
