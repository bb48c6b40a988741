"""The protocol-markup guard: an answer that *is* a tool call is never published.

Measured upstream: with tool definitions withdrawn, an endpoint still wrote its
tool-call markup (DSML) into ``delta.content`` with a ``stop`` finish. Such an
answer is rejected, never shown and never executed. The check is narrow on
purpose — it reads only the lines that begin within the first 80 characters,
outside code fences, after stripping whitespace and both pipe spellings — so
prose that mentions the syntax, or a fenced example, passes untouched.
"""

from __future__ import annotations

import re

MARKUP_WINDOW = 80
# Both spellings of the pipe the markup uses: ASCII and full-width (U+FF5C).
_PIPES = str.maketrans("", "", "|｜")
_SPACE = re.compile(r"\s+")
# Normalised openings (pipes and whitespace removed) of tool-call markup.
MARKUP_OPENINGS: tuple[str, ...] = (
    "<dsml",
    "</dsml",
    "<function_calls",
    "<tool_call",
    "<tool▁call",
    "<tool_calls",
    "<tool▁calls",
    "<invoke",
)
_FENCE = "```"


def _normalise(line: str) -> str:
    return _SPACE.sub("", line.translate(_PIPES)).lower()


def starts_with_protocol_markup(answer: str, *, window: int = MARKUP_WINDOW) -> bool:
    """True when a line beginning within the first ``window`` characters opens
    with tool-call markup (outside a fenced block)."""
    body = answer.lstrip()
    offset = 0
    fenced = False
    for line in body.splitlines(keepends=True):
        if offset >= window:
            break
        stripped = line.strip()
        if stripped.startswith(_FENCE):
            fenced = not fenced
        elif not fenced and _normalise(stripped).startswith(MARKUP_OPENINGS):
            return True
        offset += len(line)
    return False
