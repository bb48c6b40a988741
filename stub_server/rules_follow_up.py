"""How ``beacon-rules`` reads a chat follow-up against the questions before it.

"And on level 4?", "How many of them are safety findings?", "Wie viele davon zeigen
Gerüste?", a typed "Level 3" after a counter-question: a hosted model resolves these
from the transcript, and so does the embedded one. Each earlier question of the
conversation is read in turn; a question that names no record kind (elliptical) or
refers back ("of them", "davon", "그중", "そのうち", "de ellos") keeps the previous
question's set and replaces only what it names itself; any question inherits the
project it does not name. The resolved question is rephrased in English for the
upstream, so its words and its arguments say the same thing.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from beacon.lexicon.words import TOPICS, first_match, fold
from stub_server.rules_reading import Project, Reading, english_question, read

# Words that point back at the previous answer's set.
OF_THEM = re.compile(
    r"\b(?:of them|of these|of those|among them|davon|darunter|de ellos|de ellas|de esos|"
    r"de esas|entre ellos)\b|그중|그 중|이 중|そのうち|その中|このうち",
    re.IGNORECASE,
)
# A conversation is read back this far (the transcript the server sends is bounded too).
MAX_QUESTIONS = 8
# What a follow-up may replace; the rest (the set asked about) is the previous question's.
_FILTERS = ("level", "levels", "month", "window", "status", "kind", "category", "company",
            "inspector", "topic")  # fmt: skip


def _users(messages: list[dict[str, Any]]) -> list[str]:
    found = []
    for message in messages:
        content = message.get("content")
        if message.get("role") == "user" and isinstance(content, str) and content.strip():
            found.append(content.strip())
    return found[-MAX_QUESTIONS:]


def _topic(question: str) -> str | None:
    hit = first_match(TOPICS, fold(question))
    return hit[0] if hit is not None else None


def _merge(previous: Reading, current: Reading, question: str) -> Reading:
    """The previous set, narrowed or moved by what the follow-up names."""
    changes: dict[str, Any] = {}
    for name in _FILTERS:
        value = getattr(current, name)
        if value not in (None, ()):
            changes[name] = value
    if "topic" not in changes and (topic := _topic(question)) is not None:
        changes["topic"] = topic
    changes["count"] = current.count or previous.count
    if current.entity is not None:
        changes["entity"] = current.entity
    if current.project is not None:
        changes["project"] = current.project
    return replace(previous, **changes)


def _resolve(previous: Reading | None, question: str, directory: list[Project]) -> Reading:
    current = read(question, directory)
    if previous is None:
        return current
    if current.entity is None or OF_THEM.search(question):
        return _merge(previous, current, question)
    if current.project is None:
        return replace(current, project=previous.project)
    return current


def follow_up(
    earlier: list[dict[str, Any]], question: str, directory: list[Project]
) -> tuple[Reading, str]:
    """The question as the conversation means it, and the words to send for it."""
    context: Reading | None = None
    for asked in _users(earlier):
        context = _resolve(context, asked, directory)
    reading = _resolve(context, question, directory)
    if context is None or reading == read(question, directory):
        return reading, question
    return reading, english_question(reading)


__all__ = ["OF_THEM", "follow_up"]
