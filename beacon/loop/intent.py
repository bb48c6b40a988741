"""Which tool a question needs when no other tool can stand in for it.

The planner only sees the tools the caller may use, so it never asks for a
hidden one — and a question that needs one would otherwise end in a vague
"I can't". Dispatch reads the question's intent itself, puts the needed tool
through the same permission gate, and the caller gets a structured denial
instead of silence. Only tools with no substitute are listed: a count can
fall back on annotations, a photo search cannot.
"""

from __future__ import annotations

import re

INTENTS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("search_photos", re.compile(r"\b(photos?|pictures?|images?)\b", re.IGNORECASE)),
    (
        "search_documents",
        re.compile(r"\b(specs?|specifications?|rfis?|documents?)\b", re.IGNORECASE),
    ),
    ("get_progress_summary", re.compile(r"\bprogress\b", re.IGNORECASE)),
    ("get_clash_report", re.compile(r"\b(clash(es)?|bim)\b", re.IGNORECASE)),
)


def needed_tools(question: str) -> tuple[str, ...]:
    return tuple(tool for tool, pattern in INTENTS if pattern.search(question))
