"""The narration audit's codes keep the strings its rows, metrics and reports carry."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from narrowing_samples import HARBOR, adjudicated_result, tool_context

from beacon.adjudication.constraints import Constraint, Scope
from beacon.adjudication.guard.judge import Drop
from beacon.loop.scope import scope_audit
from beacon.wire.audit import AuditKind, DropRule
from stub_server.tools import Flags
from stub_server.tools_records import ListAnnotationsArgs, list_annotations

# What ``narration_audit`` rows and ``beacon_narration_dropped_total{rule=}`` have always
# said: an analyst's saved queries and dashboards read these exact strings.
WRITTEN = {
    DropRule.NUMBER_UNDER_UNKNOWN: "number_under_unknown",
    DropRule.FREE_COUNT: "free_count",
    DropRule.SUBJECT_MIXED: "subject_mixed",
    DropRule.COMPLETENESS_CLAIM: "completeness_claim",
    DropRule.ABSENCE_CLAIM: "absence_claim",
    DropRule.POPULATION_CLAIM: "population_claim",
    AuditKind.NARRATION_DROPPED: "narration_dropped",
    AuditKind.NARRATION_FALLBACK: "narration_fallback",
    AuditKind.UNKNOWN_SLOT: "unknown_slot",
    AuditKind.DROPPED_UNKNOWN_CLAUSE: "dropped_unknown_clause",
    AuditKind.BYPASSED_SLOT: "bypassed_slot",
    AuditKind.SUBJECT_SHARED: "subject_shared",
    AuditKind.SCOPE_APPLIED: "scope_applied",
    AuditKind.SCOPE_UNAPPLIED: "scope_unapplied",
    AuditKind.FILTER_BLOCKED: "filter_blocked",
}


def test_every_audit_code_has_its_written_string() -> None:
    assert set(WRITTEN) == {*DropRule, *AuditKind}


@pytest.mark.parametrize("code", list(WRITTEN), ids=str)
def test_an_audit_code_is_written_as_its_plain_string(code: DropRule | AuditKind) -> None:
    assert json.dumps(code) == json.dumps(WRITTEN[code])
    assert f"{code}" == WRITTEN[code]


def test_a_dropped_sentence_is_recorded_with_plain_strings() -> None:
    record = Drop(DropRule.FREE_COUNT, "12", "There are 12.").record()
    assert json.loads(json.dumps(record)) == {
        "kind": "narration_dropped",
        "rule": "free_count",
        "token": "12",
    }


def test_a_calls_applied_and_unapplied_constraints_are_audited_by_their_kinds() -> None:
    status = Constraint("status", "open", "open")
    level = Constraint("level", "2", "on level 2")
    arguments = {"project_id": HARBOR, "status": "open"}
    args = ListAnnotationsArgs.model_validate(arguments)
    output = list_annotations(tool_context(), args, Flags())
    counted = replace(
        adjudicated_result("list_annotations", arguments, output),
        scope=Scope(applied=(status,), unapplied=(level,)),
    )
    rows = scope_audit([counted])
    assert json.loads(json.dumps(rows)) == [
        {"kind": "scope_applied", "rule": "status", "token": "c1:open"},
        {"kind": "scope_unapplied", "rule": "level", "token": "c1:on level 2"},
    ]
