"""A filter a call carried that the question never named: its count is of a narrower set.

The scope judge (constraints.py) asks whether what the question named went out; a
planner can also send what it did not — an inspector it made of a project's name, a
status it assumed — and its count is exact, of a smaller set, and "none" of it can be
stated as the answer. What counts as named: the question's constraints — in a chat's
follow-up with what it carries from the questions before it (conversation.py) — and
what the host's view shows (``view_context``: the level on screen). The project is
the loop's to settle, so it is not judged here. A search's query is required, so it
is judged only where the question named no subject: then whatever it carries
("document", "spec" for "Show me the documents …") narrows the count to the records
that match it, and zero matches is no standing for "the project has none".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from beacon.adjudication.constraints import Constraint
from beacon.wire.tools import tool_spec

_NOT_JUDGED = frozenset({"project"})


def added_filters(
    constraints: Sequence[Constraint],
    tool: str,
    arguments: Mapping[str, Any],
    shown: Mapping[str, Any],
) -> tuple[Constraint, ...]:
    """The filters ``arguments`` carry on an axis the question named nothing on, each as
    a constraint whose phrase is the arguments as sent ("inspector Cedar School")."""
    spec = tool_spec(tool)
    if spec is None:
        return ()
    named = {c.axis for c in constraints}
    added: list[Constraint] = []
    for axis in spec.applies:
        if axis.name in _NOT_JUDGED or axis.name in named:
            continue
        sent = {a: arguments[a] for a in axis.arguments if arguments.get(a) not in (None, "")}
        if not sent or all(shown.get(a) == v for a, v in sent.items()):
            continue
        phrase = ", ".join(f"{a} {v}" for a, v in sent.items())
        added.append(Constraint(axis.name, phrase, phrase))
    return tuple(added)
