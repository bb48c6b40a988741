"""`beacon audit-upstream` against the dishonest server (harness/audit_upstream/dishonest.py):
each finding code on its own tool and on no other, honest tools and lookups clean, writes
never called, and the negative exits (2 usage, 3 unreachable or refused)."""

from __future__ import annotations

import json
import subprocess
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
import yaml

from beacon.cli.up import beacon_command, free_port
from harness.audit_upstream.contract import problems
from harness.audit_upstream.dishonest import DEFAULT_TOKEN, TOOLS, running
from harness.audit_upstream.dishonest_tools import EXPECTED, WRITE_TOOLS
from harness.audit_upstream.findings import Code

TIMEOUT_S = 120


@dataclass(frozen=True, slots=True)
class Run:
    returncode: int
    stdout: str
    stderr: str
    out: Path
    report: dict[str, Any]
    calls: list[dict[str, Any]]

    def codes(self, tool: str) -> set[str]:
        entry = next(t for t in self.report["tools"] if t["name"] == tool)
        return {f["code"] for f in entry["findings"]}


def audit(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*beacon_command(), "audit-upstream", *args],
        capture_output=True,
        text=True,
        timeout=TIMEOUT_S,
        check=False,
    )


@pytest.fixture(scope="module")
def origin() -> Iterator[str]:
    with running() as served:
        yield served


@pytest.fixture(scope="module")
def run(origin: str, tmp_path_factory: pytest.TempPathFactory) -> Run:
    out = tmp_path_factory.mktemp("audit")
    done = audit(
        "--mcp",
        f"{origin}/mcp",
        "--token",
        DEFAULT_TOKEN,
        "--json",
        str(out / "r.json"),
        "--junit",
        str(out / "r.xml"),
        "--html",
        str(out / "r.html"),
        "--contract-out",
        str(out / "contract.yaml"),
    )
    calls = httpx.get(f"{origin}/dev/calls", timeout=10).json()
    report = json.loads((out / "r.json").read_text())
    return Run(done.returncode, done.stdout, done.stderr, out, report, calls)


DISHONEST = sorted((tool, code) for tool, code in EXPECTED.items() if code is not None)
HONEST = sorted(tool for tool, code in EXPECTED.items() if code is None)


def test_every_code_of_the_vocabulary_has_a_dishonest_tool() -> None:
    assert {code for _, code in DISHONEST} == {c.value for c in Code}


@pytest.mark.parametrize(("tool", "code"), [pytest.param(t, c, id=c) for t, c in DISHONEST])
def test_each_dishonest_tool_raises_its_finding(run: Run, tool: str, code: str) -> None:
    assert code in run.codes(tool), run.report


@pytest.mark.parametrize("code", [c.value for c in Code])
def test_a_finding_code_is_raised_on_its_own_tool_and_no_other(run: Run, code: str) -> None:
    raised = {t["name"] for t in run.report["tools"] if code in run.codes(t["name"])}
    assert raised == {tool for tool, c in DISHONEST if c == code}


@pytest.mark.parametrize("tool", HONEST)
def test_honest_tools_and_lookups_get_no_finding(run: Run, tool: str) -> None:
    assert run.codes(tool) == set()


def test_honest_tools_are_read_in_snake_case_camel_case_and_text(run: Run) -> None:
    kinds = {t["name"]: t["kind"] for t in run.report["tools"]}
    assert kinds["list_projects"] == kinds["listRecords"] == kinds["list_log_lines"] == "list"
    assert kinds["searchDocs"] == "search" and kinds["get_project"] == "lookup"
    called = [c["tool"] for c in run.calls]
    assert called.count("listRecords") > 2  # its pageToken walk was followed
    assert "get_project" not in called  # a lookup is not probed


def test_tools_that_write_are_skipped_with_the_reason_and_never_called(run: Run) -> None:
    entries = {t["name"]: t for t in run.report["tools"]}
    for tool in WRITE_TOOLS:
        assert entries[tool]["kind"] == "skipped" and entries[tool]["findings"] == []
    assert "readOnlyHint: false" in entries["archive_orders"]["reason"]
    assert "'delete'" in entries["delete_project"]["reason"]
    assert not {c["tool"] for c in run.calls} & set(WRITE_TOOLS)


def test_tools_list_is_followed_to_its_last_page(run: Run) -> None:
    assert run.report["tools_list_pages"] == 4
    assert [t["name"] for t in run.report["tools"]] == [t.name for t in TOOLS]
    assert "16 tools in 4 pages" in run.stdout


def test_the_report_has_the_spec_shape_and_the_target_as_given(run: Run, origin: str) -> None:
    assert run.report["target"] == f"{origin}/mcp"
    assert set(run.report) == {"target", "tools", "tools_list_pages"}
    for tool in run.report["tools"]:
        assert {"name", "kind", "findings"} <= set(tool)
        assert tool["kind"] in {"list", "search", "lookup", "skipped"}
        for finding in tool["findings"]:
            assert set(finding) == {"code", "severity", "evidence"}
            assert finding["severity"] in {"fail", "warn"} and finding["evidence"]


def test_a_fail_finding_exits_1_with_a_progress_line_per_tool(run: Run) -> None:
    assert run.returncode == 1, run.stderr
    for tool in TOOLS:
        assert any(line.startswith(f"{tool.name}: ") for line in run.stdout.splitlines())


def test_junit_has_one_case_per_tool_failing_for_a_fail_finding(run: Run) -> None:
    suite = ET.parse(run.out / "r.xml").getroot()
    cases = {c.get("name"): c for c in suite.iter("testcase")}
    assert set(cases) == {t.name for t in TOOLS}
    failing = {name for name, case in cases.items() if case.find("failure") is not None}
    assert failing == {tool for tool, _ in DISHONEST}


def test_the_html_page_names_every_tool(run: Run) -> None:
    page = (run.out / "r.html").read_text()
    assert page.startswith("<!doctype html>")
    for tool in TOOLS:
        assert f"<code>{tool.name}</code>" in page


def test_the_written_contract_is_valid_and_says_where_accounting_lives(run: Run) -> None:
    contract = yaml.safe_load((run.out / "contract.yaml").read_text())
    assert problems(contract) == []
    records = contract["tools"]["listRecords"]
    assert records["total"] == "/structuredContent/totalCount"
    assert records["has_more"] == "/structuredContent/hasMore"
    assert records["cursor"] == "/structuredContent/nextPageToken"
    assert records["paging"]["cursor_argument"] == "pageToken"
    assert contract["tools"]["search_files"]["cursor_pins_query"] is False
    assert contract["tools"]["search_events"]["page_cap"] == 500
    assert contract["tools"]["list_log_lines"]["total"] == "text"
    assert contract["tools"]["get_project"]["result_kind"] is None


def test_a_wrong_token_exits_3_with_one_line(origin: str) -> None:
    done = audit("--mcp", f"{origin}/mcp", "--token", "not-the-token")
    assert done.returncode == 3
    assert done.stderr.strip().count("\n") == 0 and "refused" in done.stderr
    assert "Traceback" not in done.stderr + done.stdout


def test_an_unreachable_port_exits_3_with_one_line() -> None:
    done = audit("--mcp", f"http://127.0.0.1:{free_port()}/mcp")
    assert done.returncode == 3
    assert done.stderr.strip().count("\n") == 0 and "unreachable" in done.stderr


@pytest.mark.parametrize(
    "args",
    [
        pytest.param((), id="missing-mcp"),
        pytest.param(("--mcp", "http://127.0.0.1:1/mcp", "--stdio", "x"), id="both-targets"),
        pytest.param(("--mcp", "not-a-url"), id="not-a-url"),
        pytest.param(("--mcp", "http://127.0.0.1:1/mcp", "--max-pages", "0"), id="no-pages"),
        pytest.param(("--mcp", "http://127.0.0.1:1/mcp", "--bogus"), id="unknown-flag"),
    ],
)
def test_usage_errors_exit_2(args: tuple[str, ...]) -> None:
    done = audit(*args)
    assert done.returncode == 2 and "Traceback" not in done.stderr


def test_help_lists_every_flag() -> None:
    done = audit("--help")
    assert done.returncode == 0
    for flag in (
        "--mcp",
        "--token",
        "--stdio",
        "--json",
        "--junit",
        "--html",
        "--contract-out",
        "--max-pages",
    ):
        assert flag in done.stdout
