"""``beacon-rules`` as responder: sentences around the anchors' slots.

Population and returned examples never share a sentence (subject separation),
and an UNKNOWN anchor gets a sentence with no number in it at all.
"""

from __future__ import annotations

import re
from typing import Any

from stub_server.rules_model import _directory, _json_blocks, _last_user

_HOW_MANY_PHRASE = re.compile(
    r"^\s*how many\s+(?P<noun>.+?)\s+(?:are|is|were|was|do|does|did|have|has)\s+"
    r"(?P<rest>.+?)\s*\??$",
    re.IGNORECASE,
)


def _anchors(messages: list[dict[str, Any]]) -> list[dict[str, Any]] | None:
    for block in _json_blocks(messages):
        anchors = block.get("anchors")
        if isinstance(anchors, list):
            return [a for a in anchors if isinstance(a, dict)]
    return None


def _project_name(anchor: dict[str, Any], directory: list[dict[str, str]]) -> str:
    found = next((p["name"] for p in directory if p["id"] == anchor.get("project_id")), None)
    return found or "the project"


def _aggregate_sentence(anchor: dict[str, Any], question: str) -> str:
    slot = "{{count:" + anchor["slot"] + "}}"
    match = _HOW_MANY_PHRASE.match(question)
    if match:
        return f"There are {slot} {match.group('noun')} {match.group('rest')}."
    return f"The count you asked for is {slot}."


def _sentences(anchor: dict[str, Any], question: str, project: str, paired: bool) -> list[str]:
    slot, grade, shown = anchor["slot"], anchor["grade"], anchor.get("shown", 0)
    subject = anchor.get("subject", "")
    if anchor.get("failed"):
        return [
            f"The {anchor['tool']} source did not return a usable result, so I can say "
            "nothing about it."
        ]
    if grade == "UNKNOWN":
        found = " It did return results." if anchor.get("emptiness") == "non_empty" else ""
        return [
            f"The data source answered without saying how many results there are, so I "
            f"can't give a count.{found}"
        ]
    if anchor.get("aggregate"):
        return [_aggregate_sentence(anchor, question)]
    out: list[str] = []
    if not paired:
        if anchor["tool"] == "search_photos":
            out.append(f'{project} has {{{{count:{slot}}}}} photos matching "{subject}".')
        elif grade == "LOWER_BOUND":
            out.append(
                f"The query matched {{{{count:{slot}}}}} records; the data source stops "
                "counting at its row cap, so there may be more."
            )
        else:
            out.append(f"The query matched {{{{count:{slot}}}}} records.")
    if shown:
        out.append(f"These {{{{shown:{slot}}}}} are shown as cards.")
    return out


def narrate(messages: list[dict[str, Any]]) -> str:
    _, question = _last_user(messages)
    directory = _directory(messages)
    anchors = _anchors(messages) or []
    if not anchors:
        if directory:
            names = ", ".join(p["name"] for p in directory)
            return f"Which project do you mean? I can see: {names}."
        return "I could not gather any evidence for that, so I cannot answer it."
    has_aggregate = any(a.get("aggregate") and a.get("grade") == "EXACT" for a in anchors)
    sentences: list[str] = []
    for anchor in anchors:
        project = _project_name(anchor, directory)
        paired = has_aggregate and not anchor.get("aggregate")
        sentences.extend(_sentences(anchor, question, project, paired))
    return " ".join(sentences)
