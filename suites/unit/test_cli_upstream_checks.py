"""``--upstream-contract``'s checks before a server fronts an MCP server Beacon did
not write (``beacon/cli/upstream.py``): a contract that does not open is a usage
error, an upstream that does not answer is ``unreachable``, and the tools a drift
disables reach the server processes through their environment. Against a live
upstream: suites/e2e/test_front_a_third_party_upstream.py."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import typer

from beacon.cli.errors import Exit
from beacon.cli.upstream import DISABLED_ENV, check_upstream, contract_or_fail, hand_to_workers

DEAD = "http://127.0.0.1:9/mcp"  # the discard port: nothing listens there
CONTRACT = """version: 1
target: nowhere
tools:
  list_rows:
    kind: list
    capability: core
    result_kind: rows
    items: /structuredContent/records
    total: null
    total_lower_bound: null
    has_more: null
    cursor: null
    page_cap: null
    cursor_pins_query: null
    applies: []
"""


def test_a_contract_that_does_not_open_is_a_usage_error_naming_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "nowhere.yaml"
    with pytest.raises(typer.Exit) as refused:
        contract_or_fail("serve", str(missing))
    assert refused.value.exit_code == Exit.USAGE
    assert str(missing) in capsys.readouterr().err


def test_an_upstream_that_does_not_answer_is_unreachable(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    written = tmp_path / "contract.yaml"
    written.write_text(CONTRACT, encoding="utf-8")
    contract = contract_or_fail("up", str(written))
    with pytest.raises(typer.Exit) as refused:
        check_upstream("up", contract, DEAD, token=None, allow_drift=True, timeout_s=5.0)
    assert refused.value.exit_code == Exit.UNREACHABLE
    assert capsys.readouterr().err.startswith("beacon up: cannot check the upstream contract")


def test_the_disabled_tools_join_those_the_environment_already_names(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(DISABLED_ENV, "git_show")
    hand_to_workers(frozenset({"git_log"}))
    assert os.environ[DISABLED_ENV] == "git_log,git_show"


def test_no_disabled_tool_leaves_the_environment_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(DISABLED_ENV, raising=False)
    hand_to_workers(frozenset())
    assert DISABLED_ENV not in os.environ
