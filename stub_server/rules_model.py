"""``beacon-rules``: the embedded deterministic planner/narrator.

It behaves like a well-mannered model: picks tools by intent with explicit
project ids, and narrates only through the slots the anchors hand it. It
reads the same messages a hosted model would, nothing private.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field, replace
from typing import Any

from beacon.lexicon.words import WHERE as _WHERE
from stub_server.rules_corrections import correction_reply_calls
from stub_server.rules_follow_up import follow_up
from stub_server.rules_reading import Reading, english_question, language

_JSON_BLOCK = re.compile(r"```json\n(.*?)\n```", re.DOTALL)
_HOW_MANY = re.compile(r"\b(how many|number of|count)\b", re.IGNORECASE)
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


_THIS_LEVEL = re.compile(
    r"\b(?:this|the current) level\b|\bdiese[rnm]? ebene\b|\bder aktuellen ebene\b"
    r"|\beste nivel\b|\bel nivel actual\b|이 층|현재 층|この階|現在の階",
    re.IGNORECASE,
)


def _this_level(question: str, messages: list[dict[str, Any]]) -> str:
    """'this level' means the level the host is showing (view context)."""
    view = _block_value(messages, "view_context")
    number = view.get("level_number") if isinstance(view, dict) else None
    if isinstance(number, int):
        return _THIS_LEVEL.sub(f"level {number}", question)
    return question


def _photo_topic(reading: Reading, question: str, project: dict[str, str]) -> str | None:
    """What the photos should show and nothing else: the topic the question names in
    any locale (as the search index knows it: "scaffolding"), never its other words —
    a level or a month travels as its own argument. With no known topic, an English
    question's own words ("photos of …"); None: photos of anything."""
    if reading.topic is not None:
        return reading.topic
    match = _PHOTO_TOPIC.search(question) if language(question) == "en" else None
    if match and (topic := _strip_project(match.group(1), project)):
        return topic
    return None


# Record kinds only one tool serves, and that tool.
_SITE_TOOLS = {
    "documents": "search_documents",
    "clashes": "get_clash_report",
    "progress": "get_progress_summary",
}
_RFI = re.compile(r"\brfis?\b", re.IGNORECASE)
_SPEC = re.compile(r"\bspec(?:ification)?s?\b", re.IGNORECASE)


def _site_calls(reading: Reading, question: str, pid: str, tools: set[str]) -> list[dict[str, Any]]:
    """Documents, clashes and progress: the one tool that holds them, filters as arguments."""
    assert reading.entity is not None
    tool = _SITE_TOOLS[reading.entity]
    if tool not in tools:
        return []
    arguments: dict[str, Any] = {"project_id": pid}
    if tool == "search_documents":
        kind = "rfi" if _RFI.search(question) else "spec" if _SPEC.search(question) else None
        # A keyword search: the subject's words, else the document kind itself ("RFI").
        arguments["query"] = reading.topic or reading.category or kind or "document"
        if kind is not None:
            arguments["kind"] = kind
    elif reading.level is not None:
        arguments["level_number"] = reading.level
    return [_call(1, tool, arguments)]


def _per_side(reading: Reading, pid: str, tools: set[str]) -> list[dict[str, Any]]:
    """A comparison ("level 3 vs level 4"): one count per side, each its own question."""
    if "query_data" not in tools:
        return []
    calls = []
    for n, level in enumerate(reading.levels, start=1):
        side = replace(reading, level=level, levels=(level,))
        arguments = {"project_id": pid, "question": english_question(side), **side.filters()}
        calls.append(_call(n, "query_data", arguments))
    return calls


def _calls(
    reading: Reading, question: str, project: dict[str, str], tools: set[str]
) -> list[dict[str, Any]]:
    """The tool calls a question needs, with every filter it names as an argument."""
    pid = project["id"]
    # An English question goes to the text-to-SQL as the user wrote it; any other is
    # rephrased in English, as a hosted model would (the upstream reads English).
    english = language(question) == "en"
    filters = reading.filters()
    # Every filter the question names travels as its own argument, as a good planner
    # sends it: the chat server checks the arguments (not the words) against what the
    # question asked, and a filter left in the words only is asked for again.
    scoped = filters
    if reading.entity == "photos" and (topic := _photo_topic(reading, question, project)):
        if "search_photos" not in tools:
            return []
        arguments: dict[str, Any] = {"project_id": pid, "query": topic, "limit": 10, **scoped}
        return [_call(1, "search_photos", arguments)]
    if reading.entity in _SITE_TOOLS:
        return _site_calls(reading, question, pid, tools)
    if len(reading.levels) > 1:
        return _per_side(reading, pid, tools)  # a comparison, counted or listed: per side
    if reading.entity == "trades":
        if "get_progress_summary" not in tools:
            return []
        scope = {"level_number": reading.level} if reading.level is not None else {}
        return [_call(1, "get_progress_summary", {"project_id": pid, **scope})]
    if reading.count:
        if reading.entity is None or "query_data" not in tools:
            return []  # a count is the aggregate's: code tells the user what is missing
        asked = question if english else english_question(reading)
        listing = (
            _HOW_MANY.sub("list", asked, count=1)
            if english
            else english_question(replace(reading, count=False))
        )
        return [
            _call(1, "query_data", {"project_id": pid, "question": asked, **scoped}),
            _call(2, "query_data", {"project_id": pid, "question": listing, **scoped}),
        ]
    if reading.entity is None:
        return []
    if "query_data" in tools:
        asked = question if english else english_question(reading)
        return [_call(1, "query_data", {"project_id": pid, "question": asked, **scoped})]
    if reading.entity == "findings" and "list_annotations" in tools:
        return [_call(1, "list_annotations", {"project_id": pid, "limit": 100, **filters})]
    if reading.entity == "photos" and "search_photos" in tools:
        query = {"project_id": pid, "query": "photos", "limit": 10, **scoped}
        return [_call(1, "search_photos", query)]
    return []


# Written beside calls that are all the question needs, as the planner prompt allows: the
# loop then asks no further round only to hear it (beacon/loop/gather.py said_ready).
READY = "READY"


def plan(messages: list[dict[str, Any]], tool_names: set[str]) -> Reply:
    user_index, question = _last_user(messages)
    if any(m.get("role") == "tool" for m in messages[user_index + 1 :]):
        # A well-behaved model makes the calls a correction asks for, once.
        corrected = correction_reply_calls(messages, user_index)
        return Reply(READY, corrected) if corrected else Reply(READY)
    narrowing = _block_value(messages, "narrowing")
    if isinstance(narrowing, dict) and narrowing.get("tool") in tool_names:
        # The user picked a narrower scope: repeat the search; dispatch applies it.
        arguments = dict(narrowing.get("arguments") or {})
        return Reply(READY, [_call(1, str(narrowing["tool"]), arguments)])
    question = _this_level(question, messages)
    directory = _directory(messages)
    # "Where is Maple Clinic?" asks for the project's own record whatever came before.
    where = _WHERE.search(question) is not None
    reading, question = follow_up(messages[:user_index], question, directory)
    project = reading.project
    if project is None:
        view_id = _view_project(messages)
        project = next((p for p in directory if p["id"] == view_id), None)
    if project is None:
        return Reply("I need to know which project you mean.")
    if where and "list_projects" in tool_names:
        # "Where is Maple Clinic?": the project's own record says (code reads its city).
        return Reply(READY, [_call(1, "list_projects", {})])
    calls = _calls(reading, question, project, tool_names)
    if not calls:
        return Reply("I can count, list and search photos, findings and panoramas.")
    return Reply(READY, calls)
