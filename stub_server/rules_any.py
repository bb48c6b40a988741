"""beacon-rules in front of an upstream it does not know (one Beacon fronts through a
declared contract): pick the tool whose name and description share the most words
with the question, fill only what the question can fill, and call it once.

Deliberately plain, as a small hosted model would be: no project directory, no
domain readings. What it cannot fill (a required argument that is not a search
phrase) rules the tool out; a deployment fixes such arguments in its contract.
"""

from __future__ import annotations

import json
import re
from typing import Any

from stub_server.rules_model import Reply, _last_user

_WORD = re.compile(r"[a-z0-9]+")
_STOP = frozenset(
    [
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "by",
        "can",
        "do",
        "does",
        "for",
        "from",
        "have",
        "how",
        "i",
        "in",
        "is",
        "it",
        "its",
        "list",
        "many",
        "me",
        "my",
        "of",
        "on",
        "or",
        "please",
        "show",
        "tell",
        "that",
        "the",
        "their",
        "them",
        "there",
        "these",
        "this",
        "to",
        "was",
        "were",
        "what",
        "when",
        "where",
        "which",
        "who",
        "with",
        "you",
        "your",
        "all",
        "any",
        "give",
        "get",
    ]
)
# Arguments a question's own words may fill: a search phrase.
_PHRASE_ARGS = frozenset({"query", "q", "search", "pattern", "keyword", "keywords", "text", "term"})


def _stem(word: str) -> str:
    # "commits" → "commit", "logs" → "log": enough to meet a tool's own words.
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word


def words(text: str) -> set[str]:
    split = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", text).replace("_", " ").replace("-", " ")
    return {_stem(w) for w in _WORD.findall(split.lower()) if w not in _STOP}


def _arguments(tool: dict[str, Any], question: str) -> dict[str, Any] | None:
    schema = tool.get("parameters") or {}
    properties = schema.get("properties") or {}
    arguments: dict[str, Any] = {}
    for name in schema.get("required") or ():
        kind = (properties.get(name) or {}).get("type")
        if name.lower() in _PHRASE_ARGS and kind in (None, "string"):
            arguments[name] = " ".join(sorted(words(question))) or question
        else:
            return None  # nothing in the question fills it
    return arguments


def plan_any(messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> Reply:
    index, question = _last_user(messages)
    if any(m.get("role") == "tool" for m in messages[index + 1 :]):
        return Reply("READY")  # one call answers it; the answer call narrates
    asked = words(question)
    ranked = sorted(
        (
            (len(asked & words(f"{f.get('name', '')} {f.get('description', '')}")), i, f)
            for i, t in enumerate(tools)
            if isinstance(f := t.get("function"), dict)
        ),
        key=lambda scored: (-scored[0], scored[1]),
    )
    for score, _, function in ranked:
        if score == 0:
            break
        arguments = _arguments(function, question)
        if arguments is not None:
            call = {
                "id": "call_1",
                "type": "function",
                "function": {"name": function["name"], "arguments": json.dumps(arguments)},
            }
            return Reply("", [call])
    names = ", ".join(str(t.get("function", {}).get("name")) for t in tools)
    return Reply(f"I can answer questions the upstream's tools cover: {names}.")
