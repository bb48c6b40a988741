"""How ``beacon-rules`` takes a correction the chat server sends between rounds.

The chat server reads a question's constraints itself and, when a call left
one out, asks once for the call again with the arguments that apply it, as
JSON data (``{"calls": [{"tool", "arguments"}]}``) in a system message after
the question. A well-behaved model makes those calls, once; the scripted
planners that ignore it are the tests' disobedient ones.
"""

from __future__ import annotations

import json
from typing import Any

_MARK = '{"calls":'


def _text(message: dict[str, Any]) -> str:
    content = message.get("content")
    return content if isinstance(content, str) else ""


def asked_calls(messages: list[dict[str, Any]], user_index: int) -> list[dict[str, Any]]:
    """The calls the latest correction after the question asks for, unless already made."""
    after = messages[user_index + 1 :]
    for at in range(len(after) - 1, -1, -1):
        message = after[at]
        text = _text(message)
        if message.get("role") != "system" or _MARK not in text:
            continue
        if any(m.get("role") == "assistant" and m.get("tool_calls") for m in after[at:]):
            return []  # already obeyed: the planner is done
        try:
            data = json.loads(text[text.index(_MARK) :])
        except ValueError:
            return []
        calls = data.get("calls") if isinstance(data, dict) else None
        return [
            c
            for c in (calls if isinstance(calls, list) else [])
            if isinstance(c, dict) and isinstance(c.get("tool"), str)
        ]
    return []


def correction_reply_calls(messages: list[dict[str, Any]], user_index: int) -> list[dict[str, Any]]:
    """The correction's calls in the OpenAI tool-call shape (empty: nothing to obey)."""
    return [
        {
            "id": f"call_scope_{k}",
            "type": "function",
            "function": {"name": c["tool"], "arguments": json.dumps(c.get("arguments") or {})},
        }
        for k, c in enumerate(asked_calls(messages, user_index), start=1)
    ]
