"""``beacon-rules`` as responder: sentences around the anchors' slots.

One sentence per anchor, so population and returned examples never share a
sentence (subject separation), and an unknown count gets a sentence with no
number in it at all.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from stub_server.rules_model import _directory, _json_blocks, _last_user

_HOW_MANY_PHRASE = re.compile(
    r"^\s*how many\s+(?P<noun>.+?)\s+(?:are|is|were|was|do|does|did|have|has)\s+"
    r"(?P<rest>.+?)\s*\??$",
    re.IGNORECASE,
)
Anchor = dict[str, Any]


def _anchors(messages: list[dict[str, Any]]) -> list[Anchor] | None:
    for block in _json_blocks(messages):
        anchors = block.get("anchors")
        if isinstance(anchors, list):
            return [a for a in anchors if isinstance(a, dict)]
    return None


def _count_sentence(a: Anchor, question: str, project: str, bound: bool) -> str:
    slot = "{{count:" + str(a["slot"]) + "}}"
    if a.get("aggregate"):
        match = _HOW_MANY_PHRASE.match(question)
        if match:
            return f"There are {slot} {match.group('noun')} {match.group('rest')}."
        return f"The count you asked for is {slot}."
    if a.get("tool") == "search_photos":
        return f'{project} has {slot} photos matching "{a.get("subject", "")}".'
    if bound:
        return (
            f"The query matched {slot} records; the data source stops counting at its row "
            "cap, so there may be more."
        )
    return f"The query matched {slot} records."


_FIELD_WORDS = {
    "company": "companies",
    "category": "categories",
    "status": "statuses",
    "level_number": "levels",
    "discipline": "disciplines",
    "kind": "kinds",
}
_WHERE = {
    "appears_in_findings": "in these findings",
    "appears_in_records": "in these records",
    "named_in_documents": "in these documents",
    "appears_in_clashes": "in these clashes",
}


def _enumeration_sentence(a: Anchor) -> str:
    members = [str(m) for m in a.get("members", [])]
    noun = _FIELD_WORDS.get(str(a.get("field")), str(a.get("field")))
    where = _WHERE.get(str(a.get("relation")), "in these records")
    if not members:
        return f"No {noun} are recorded {where}."
    listed = members[0] if len(members) == 1 else ", ".join(members[:-1]) + " and " + members[-1]
    if a.get("complete"):
        return f"The {noun} that appear {where}: {listed}."
    return f"Among the records returned (not all of them), these {noun} appear: {listed}."


_FIXED: dict[str, Callable[[Anchor], str]] = {
    "enumeration": _enumeration_sentence,
    "shown_subset": lambda a: "These {{shown:" + str(a["slot"]) + "}} are shown as cards.",
    "unknown_count": lambda a: (
        "The data source answered without saying how many results "
        "there are, so I can't give a count."
    ),
    "empty_with_standing": lambda a: "The data source found none.",
    # The notice card says why; the narration must not restate it.
    "absence_permission_denied": lambda a: (
        "That search could not be run here, so I have nothing to show for it."
    ),
    "absence_auth_failure": lambda a: "The data source refused the sign-in, so I could not look.",
    "absence_zero_after_narrowing": lambda a: (
        "That is not among the previous results. Shall I search the whole project?"
    ),
    "absence_zero_from_start": lambda a: "The project has no such data.",
    "in_band_failure": lambda a: (
        f"The {a.get('tool', 'data')} source did not return a usable "
        "result, so I can say nothing about it."
    ),
    "narrowing_released": lambda a: "The next search will cover everything again.",
    "stitch_discarded": lambda a: (
        "Later pages disagreed with the first, so I am answering from the first page only."
    ),
}


def narrate(messages: list[dict[str, Any]]) -> str:
    _, question = _last_user(messages)
    directory = _directory(messages)
    anchors = _anchors(messages) or []
    if not anchors:
        if directory:
            listed = ", ".join(p["name"] for p in directory)
            return f"Which project do you mean? I can see: {listed}."
        return "I could not gather any evidence for that, so I cannot answer it."
    # With an exact aggregate, a companion listing only supplies the cards.
    has_aggregate = any(a.get("aggregate") and a.get("kind") == "exact_count" for a in anchors)
    names = {p["id"]: p["name"] for p in directory}
    sentences: list[str] = []
    for a in anchors:
        kind = a.get("kind")
        if kind in ("exact_count", "lower_bound"):
            if has_aggregate and not a.get("aggregate"):
                continue
            project = names.get(str(a.get("project_id")), "the project")
            sentences.append(_count_sentence(a, question, project, kind == "lower_bound"))
        elif isinstance(kind, str) and kind in _FIXED:
            sentences.append(_FIXED[kind](a))
    return " ".join(s for s in sentences if s)
