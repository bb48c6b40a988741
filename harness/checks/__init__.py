"""The check kinds the sweep knows how to run, one plain function each.

A check returns nothing when the boundary holds and raises ``CheckFailed``
(naming the registry field) when it does not. Symbols are found by import or
by parsing, never by line number.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from harness.checks.base import Check, CheckContext
from harness.checks.docs import doc_citation
from harness.checks.gates import gate_callers, gate_exit
from harness.checks.seams import route, seam
from harness.checks.values import (
    dependency_pin,
    generated_file,
    python_constant,
    same_value,
    symbol_exists,
    transition_table,
)
from harness.checks.wire import (
    produced_shape,
    recorded_frame,
    recorded_llm_request,
    served_openapi,
    stub_tool_result,
)
from harness.refs import CheckFailed

CHECKS: dict[str, Check] = {
    "python-constant": python_constant,
    "same-value": same_value,
    "symbol-exists": symbol_exists,
    "stub-tool-result": stub_tool_result,
    "produced-shape": produced_shape,
    "recorded-frame": recorded_frame,
    "served-openapi": served_openapi,
    "recorded-llm-request": recorded_llm_request,
    "gate-exit": gate_exit,
    "gate-callers": gate_callers,
    "route": route,
    "seam": seam,
    "transition-table": transition_table,
    "dependency-pin": dependency_pin,
    "doc-citation": doc_citation,
    "generated-file": generated_file,
}


def run_check(check: Mapping[str, Any], ctx: CheckContext) -> None:
    kind = check.get("type")
    if kind not in CHECKS:
        raise CheckFailed("check.type", f"unknown check type {kind!r}")
    CHECKS[str(kind)](check, ctx)
