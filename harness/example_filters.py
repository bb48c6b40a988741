"""Example safety filters (``beacon.loop.filters``), for the tests and as a model to copy.

    BEACON_FILTERS=harness.example_filters:MARKED_QUESTIONS,harness.example_filters:MARKED_ANSWERS

Each blocks text carrying its marker word, which no real question or answer uses, so a
test decides which turn is stopped, and where, by what it asks.
"""

from __future__ import annotations

from beacon.loop.filters import PASS, Verdict, block

QUESTION_MARKER = "forbidden-topic"
ANSWER_MARKER = "leaked-secret"


class MarkedQuestions:
    """An input filter: a question naming the marker is stopped before anything runs."""

    async def check_question(self, question: str, *, locale: str) -> Verdict:
        return block("marked_question") if QUESTION_MARKER in question.lower() else PASS


class MarkedAnswers:
    """An output filter: an answer saying the marker is never published."""

    async def check_answer(self, answer: str, *, question: str, locale: str) -> Verdict:
        return block("marked_answer") if ANSWER_MARKER in answer.lower() else PASS


MARKED_QUESTIONS = MarkedQuestions()
MARKED_ANSWERS = MarkedAnswers()
BOTH = f"{__name__}:MARKED_QUESTIONS,{__name__}:MARKED_ANSWERS"
