"""Which upstream tools carry a result contract (their results can be counted).

The answer is each tool's row in the one tool table (``beacon.wire.tools``): a
tool with a ``result_kind`` answers with result sets under accounting; others
(a single record, prose) are their own answer and are never graded or judged
empty. A tool without a row has no contract.
"""

from __future__ import annotations

from beacon.wire.tools import tool_spec, tool_specs

# A view of the table for the registry's pin; the verdicts read the rows.
RESULT_CONTRACT_TOOLS: frozenset[str] = frozenset(
    spec.name for spec in tool_specs() if spec.has_result_contract
)


def has_result_contract(tool: str) -> bool:
    spec = tool_spec(tool)
    return spec is not None and spec.has_result_contract
