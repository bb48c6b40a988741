"""Which tool a question needs when no other tool can stand in for it.

The planner only sees the tools the caller may use, so it never asks for a
hidden one — and a question that needs one would otherwise end in a vague
"I can't". Dispatch reads the question's intent itself, puts the needed tool
through the same permission gate, and the caller gets a structured denial
instead of silence. Only tools with no substitute carry an ``intent`` in the
tool table (``beacon.wire.tools``): a photo search has none. A "how many …?"
question has none either: its answer is the single-value aggregate (SPEC §3,
``aggregate.py``), a listing only bounds it, so a caller without the aggregate
tool is told what the count needs rather than asked which project they mean.
"""

from __future__ import annotations

import re

from beacon.adjudication import wants_aggregate
from beacon.loop.aggregate import AGGREGATE_TOOL
from beacon.wire.tools import tool_specs


def needed_tools(question: str) -> tuple[str, ...]:
    """The tools whose intent the question matches, in the table's order."""
    needed = [
        spec.name
        for spec in tool_specs()
        if spec.intent is not None and re.search(spec.intent, question, re.IGNORECASE)
    ]
    if wants_aggregate(question) and AGGREGATE_TOOL not in needed:
        needed.append(AGGREGATE_TOOL)
    return tuple(needed)
