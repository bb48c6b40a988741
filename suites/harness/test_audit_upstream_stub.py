"""Beacon's own stub audited: clean except what it reproduces on purpose (SPEC §2.1)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import yaml

from beacon.cli.up import beacon_command
from beacon.wire.tools import TOOL_SPECS
from harness.audit_upstream.contract import problems
from harness.stub_process import running_stub


def _audit(mcp: str, token: str, out: Path) -> tuple[int, dict[str, Any], dict[str, Any]]:
    done = subprocess.run(
        [
            *beacon_command(),
            "audit-upstream",
            "--mcp",
            mcp,
            "--token",
            token,
            "--json",
            str(out / "r.json"),
            "--contract-out",
            str(out / "c.yaml"),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert "Traceback" not in done.stderr, done.stderr
    report = json.loads((out / "r.json").read_text())
    return done.returncode, report, yaml.safe_load((out / "c.yaml").read_text())


def _codes(report: dict[str, Any]) -> dict[str, set[str]]:
    return {t["name"]: {f["code"] for f in t["findings"]} for t in report["tools"]}


def test_the_stub_is_clean_but_for_its_row_cap_on_query_data(tmp_path: Path) -> None:
    with running_stub("mcp") as stub:
        code, report, contract = _audit(stub.mcp_url, stub.token(), tmp_path)
    found = {tool: codes for tool, codes in _codes(report).items() if codes}
    assert found == {"query_data": {"cap-saturation"}}
    cap = next(f for t in report["tools"] for f in t["findings"] if t["name"] == "query_data")
    assert cap["evidence"]["total"] == 3000
    # One phrasing of the question found the cap: a possible false completion, a warning.
    assert cap["severity"] == "warn" and code == 0
    kinds = {t["name"]: t["kind"] for t in report["tools"]}
    assert {n for n, k in kinds.items() if k == "lookup"} == {
        name for name, spec in TOOL_SPECS.items() if spec.result_kind is None
    }
    assert problems(contract) == []
    assert set(contract["tools"]) == set(TOOL_SPECS)
    assert contract["tools"]["query_data"]["page_cap"] == 3000
    assert contract["tools"]["search_photos"]["total_lower_bound"] == (
        "/structuredContent/total_lower_bound"
    )


def test_the_stub_cursor_that_reruns_the_question_is_found(tmp_path: Path) -> None:
    # One page holds the whole capped table by default, so query_data never hands out a
    # cursor; with a smaller page and the drift its cursor can show, page 2 re-runs it.
    env = {"BEACON_STUB_QUERY_PAGE_SIZE": "1000"}
    with running_stub("mcp", scenario="cursor-drift", env=env) as stub:
        code, report, contract = _audit(stub.mcp_url, stub.token(), tmp_path)
    found = {tool: codes for tool, codes in _codes(report).items() if codes}
    # (Its first pages say has-more: the cap is the default configuration's finding.)
    assert found == {
        "query_data": {"cursor-unpinned"},
        "search_photos": {"cursor-unpinned"},  # the scenario drifts the photo search too
    }
    assert code == 1
    assert contract["tools"]["query_data"]["cursor_pins_query"] is False
    assert contract["tools"]["list_annotations"]["cursor_pins_query"] is True
