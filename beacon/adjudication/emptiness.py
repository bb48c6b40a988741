"""Result emptiness (SPEC §3): "there are none" needs standing.

The order of the checks is the argument: findings win over everything; a
failure says nothing about how much data exists; only a payload the server
accounted for as its own result may ground "empty".
"""

from __future__ import annotations

from typing import Any, Literal

from beacon.adjudication.accounting import read_accounting
from beacon.adjudication.tools import has_result_contract

Emptiness = Literal["empty", "non_empty", "unknown"]


def _has_findings(result: dict[str, Any]) -> bool:
    structured = result.get("structuredContent")
    if isinstance(structured, dict):
        for key in ("rows", "items"):
            value = structured.get(key)
            if isinstance(value, list) and value:
                return True
    acct = read_accounting(result)
    return acct is not None and (acct.returned > 0 or acct.aggregate is not None)


def result_emptiness(tool: str, result: object) -> Emptiness:
    if not has_result_contract(tool) or not isinstance(result, dict):
        return "unknown"
    if _has_findings(result):
        return "non_empty"
    if result.get("isError") is True:
        return "unknown"
    return "empty" if read_accounting(result) is not None else "unknown"
