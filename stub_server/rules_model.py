"""``beacon-rules``: the embedded deterministic planner/narrator.

It behaves like a well-mannered model: picks tools by intent with explicit
project ids, and narrates only through the slots the anchors hand it. It
reads the same messages a hosted model would, nothing private.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

_JSON_BLOCK = re.compile(r"```json\n(.*?)\n```", re.DOTALL)
_HOW_MANY = re.compile(r"\b(how many|number of|count)\b", re.IGNORECASE)
_PHOTOS = re.compile(r"\b(photos?|pictures?|images?)\b", re.IGNORECASE)
_LISTING = re.compile(r"\b(list|show|all|which)\b", re.IGNORECASE)
_PHOTO_TOPIC = re.compile(
    r"\b(?:photos?|pictures?|images?)\s+(?:of|showing|with|about)\s+(.+)", re.IGNORECASE
)


@dataclass(frozen=True, slots=True)
class Reply:
    content: str
    tool_calls: list[dict[str, Any]] = field(default_factory=list)
    # Only scripted models set it: a finish the wire allows but a client may not expect.
    finish: str | None = None

    @property
    def finish_reason(self) -> str:
        if self.finish is not None:
            return self.finish
        return "tool_calls" if self.tool_calls else "stop"


def _text(message: dict[str, Any]) -> str:
    content = message.get("content")
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(p.get("text", "") for p in content if isinstance(p, dict))
    return ""


def _json_blocks(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    blocks = []
    for message in messages:
        if message.get("role") != "system":
            continue
        for raw in _JSON_BLOCK.findall(_text(message)):
            try:
                parsed = json.loads(raw)
            except json.JSONDecodeError:
                continue
            if isinstance(parsed, dict):
                blocks.append(parsed)
    return blocks


def _last_user(messages: list[dict[str, Any]]) -> tuple[int, str]:
    for index in range(len(messages) - 1, -1, -1):
        if messages[index].get("role") == "user":
            return index, _text(messages[index]).strip()
    return -1, ""


def _directory(messages: list[dict[str, Any]]) -> list[dict[str, str]]:
    for block in _json_blocks(messages):
        projects = block.get("projects")
        if isinstance(projects, list):
            return [p for p in projects if isinstance(p, dict) and p.get("id") and p.get("name")]
    return []


def _view_project(messages: list[dict[str, Any]]) -> str | None:
    for block in _json_blocks(messages):
        view = block.get("view_context")
        if isinstance(view, dict) and isinstance(view.get("project_id"), str):
            return str(view["project_id"])
    return None


def _project_in(question: str, directory: list[dict[str, str]]) -> dict[str, str] | None:
    lowered = question.lower()
    named = [p for p in directory if p["name"].lower() in lowered]
    return max(named, key=lambda p: len(p["name"])) if named else None


def _strip_project(text: str, project: dict[str, str]) -> str:
    pattern = r"\s*\b(?:in|of|at|for|from)\s+(?:the\s+)?" + re.escape(project["name"]) + r"\b"
    return re.sub(pattern, "", text, flags=re.IGNORECASE).strip(" ?.!")


def _call(index: int, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": f"call_{index}",
        "type": "function",
        "function": {"name": name, "arguments": json.dumps(arguments)},
    }


def _block_value(messages: list[dict[str, Any]], key: str) -> Any:
    for block in _json_blocks(messages):
        if key in block:
            return block[key]
    return None


def _this_level(question: str, messages: list[dict[str, Any]]) -> str:
    """'this level' means the level the host is showing (view context)."""
    view = _block_value(messages, "view_context")
    number = view.get("level_number") if isinstance(view, dict) else None
    if isinstance(number, int):
        return re.sub(
            r"\b(this|the current) level\b", f"level {number}", question, flags=re.IGNORECASE
        )
    return question


def plan(messages: list[dict[str, Any]], tool_names: set[str]) -> Reply:
    user_index, question = _last_user(messages)
    if any(m.get("role") == "tool" for m in messages[user_index + 1 :]):
        return Reply("READY")
    narrowing = _block_value(messages, "narrowing")
    if isinstance(narrowing, dict) and narrowing.get("tool") in tool_names:
        # The user picked a narrower scope: repeat the search; dispatch applies it.
        return Reply("", [_call(1, str(narrowing["tool"]), dict(narrowing.get("arguments") or {}))])
    question = _this_level(question, messages)
    directory = _directory(messages)
    project = _project_in(question, directory)
    if project is None:
        view_id = _view_project(messages)
        project = next((p for p in directory if p["id"] == view_id), None)
    if project is None:
        return Reply("I need to know which project you mean.")
    pid = project["id"]
    calls: list[dict[str, Any]] = []
    if _HOW_MANY.search(question) and "query_data" in tool_names:
        listing = _HOW_MANY.sub("list", question, count=1)
        calls = [
            _call(1, "query_data", {"project_id": pid, "question": question}),
            _call(2, "query_data", {"project_id": pid, "question": listing}),
        ]
    elif _PHOTOS.search(question) and "search_photos" in tool_names:
        topic_match = _PHOTO_TOPIC.search(question)
        topic = _strip_project(topic_match.group(1) if topic_match else question, project)
        calls = [_call(1, "search_photos", {"project_id": pid, "query": topic, "limit": 10})]
    elif _LISTING.search(question) and "query_data" in tool_names:
        calls = [_call(1, "query_data", {"project_id": pid, "question": question})]
    if not calls:
        return Reply("I can count, list and search photos, annotations and panoramas.")
    return Reply("", calls)
