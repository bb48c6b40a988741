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
from collections.abc import Mapping

from beacon.adjudication import wants_aggregate
from beacon.lexicon.words import RECORDS, bounded_pattern, fold
from beacon.wire.tools import (
    ANNOTATION,
    DOCUMENT,
    PANORAMA,
    PHOTO,
    RecordKind,
    ToolSpec,
    tool_specs,
    tool_with_role,
)

# The lexicon's record kinds as the tool table cites them.
CITED_AS: Mapping[str, RecordKind] = {
    "photos": PHOTO,
    "findings": ANNOTATION,
    "panoramas": PANORAMA,
    "documents": DOCUMENT,
}


def named_kinds(text: str) -> list[tuple[str, re.Match[str]]]:
    """Every record kind the (NFKC) text names, in the order it names them."""
    found = []
    for kind, patterns in RECORDS.items():
        for pattern in patterns:
            match = bounded_pattern(pattern, re.IGNORECASE).search(text)
            if match:
                found.append((kind, match))
                break
    return sorted(found, key=lambda item: item[1].start())


def _asks_for(spec: ToolSpec, text: str) -> bool:
    """The tool's own intent, or (in any of five locales) a record kind it alone cites."""
    if spec.intent is None:
        return False
    if re.search(spec.intent, text, re.IGNORECASE):
        return True
    return any(CITED_AS[kind] in spec.cites for kind, _ in named_kinds(fold(text)))


def intent_tools(text: str) -> list[str]:
    """The tools no other can stand in for that ``text`` asks for, in the table's order."""
    return [spec.name for spec in tool_specs() if _asks_for(spec, text)]


def needed_tools(question: str) -> tuple[str, ...]:
    """The tools whose intent the question matches, in the table's order."""
    needed = intent_tools(question)
    # Only where the fronted upstream has the aggregate: an upstream fronted through its
    # contract may have none, and a tool it lacks is no one's plan to be denied.
    aggregate = tool_with_role("aggregate")
    if aggregate is not None and wants_aggregate(question) and aggregate not in needed:
        needed.append(aggregate)
    return tuple(needed)
