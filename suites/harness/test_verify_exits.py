"""The installed ``beacon verify`` against the frame servers (``verify_frame_servers.py``):
its exit codes and its three outputs, and the promote gate's reading of a verify report.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest
from verify_frame_servers import GOOD, OTHER, frame_server, verify_at

from harness.gating import Decision, Outcome, record_verify, write_evidence
from harness.inproc import serving
from harness.verify.report import write_reports


@pytest.fixture(scope="module")
def honest() -> Iterator[str]:
    with serving(lambda _origin: frame_server()) as origin:
        yield origin


def _beacon_verify(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "beacon", "verify", *args],
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_the_command_exits_0_1_2_and_writes_junit_json_html(honest: str, tmp_path: Path) -> None:
    base = ("--token", GOOD, "--other-token", OTHER, "--out-dir")
    green = _beacon_verify("--target", honest, *base, str(tmp_path / "green"))
    assert green.returncode == 0, green.stdout + green.stderr
    # Not-run checks are one line per reason, naming them (not one line each).
    assert any(
        line.startswith("not verified (") and "auth.expired::turns" in line
        for line in green.stdout.splitlines()
    ), green.stdout
    with serving(lambda _origin: frame_server("two-terminals")) as origin:
        red = _beacon_verify("--target", origin, *base, str(tmp_path / "red"))
        baseline = tmp_path / "known.json"
        baseline.write_text(json.dumps({"failures": ["frames.one-terminal"]}))
        known = _beacon_verify(
            "--target", origin, *base, str(tmp_path / "known"), "--baseline", str(baseline)
        )
    assert red.returncode == 1, red.stdout + red.stderr
    assert "FAIL: frames.one-terminal::count-en" in red.stdout
    assert known.returncode == 0, known.stdout + known.stderr
    suite = ET.parse(tmp_path / "red/junit.xml").getroot().find("testsuite")
    assert suite is not None
    cases = suite.findall("testcase")
    failed = [c for c in cases if c.find("failure") is not None]
    assert {c.get("classname") for c in failed} == {"verify.frames.one-terminal"}
    assert len(failed) == 8  # one per question the run asked
    skipped = [c.find("skipped") for c in cases if c.find("skipped") is not None]
    assert all(s is not None and "not verified" in str(s.get("message")) for s in skipped)
    checks = json.loads((tmp_path / "red/checks.json").read_text())
    assert checks["exit_code"] == 1 and checks["summary"]["fail"] == 8
    page = (tmp_path / "red/report.html").read_text()
    assert "frames.one-terminal" in page and "Not verified" in page
    assert "<script" not in page and "<link" not in page and "src=" not in page
    assert "2 terminal frames" in page


def test_usage_errors_exit_2(honest: str, tmp_path: Path) -> None:
    assert _beacon_verify("--target", honest).returncode == 2  # neither --token nor --mcp
    assert _beacon_verify("--target", "ftp://x", "--token", GOOD).returncode == 2
    unknown = _beacon_verify("--target", honest, "--token", GOOD, "--check", "no.such")
    assert unknown.returncode == 2 and "unknown --check" in unknown.stderr
    bad = tmp_path / "bad.txt"
    bad.write_text("prose.nonsense\n")
    assert (
        _beacon_verify("--target", honest, "--token", GOOD, "--baseline", str(bad)).returncode == 2
    )
    missing = _beacon_verify(
        "--target", honest, "--token", GOOD, "--baseline", str(tmp_path / "no")
    )
    assert missing.returncode == 2


# --- the promote gate's reading of a report ---------------------------------------------


def test_promote_records_the_report_and_a_red_verify_is_failing_evidence(tmp_path: Path) -> None:
    with serving(lambda _origin: frame_server("nan-500")) as origin:
        report = verify_at(origin)
    written = write_reports(report, tmp_path / "reports/gates/verify")
    decision = Decision("promote")
    record_verify(tmp_path, decision, report, written)
    assert decision.outcome is Outcome.FAILING and decision.exit_code == 1
    assert any(f.startswith("verify input.non-strict-json::nan") for f in decision.findings)
    evidence = json.loads(write_evidence(tmp_path, decision).read_text())
    verify = evidence["facts"]["verify"]
    assert verify["reports"]["html"] == "reports/gates/verify/report.html"
    assert "input.non-strict-json::nan" in verify["failed"]
    assert verify["summary"]["fail"] >= 1


def test_promote_refuses_a_verify_run_that_left_checks_not_verified(
    honest: str, tmp_path: Path
) -> None:
    report = verify_at(honest)
    decision = Decision("promote")
    record_verify(tmp_path, decision, report, write_reports(report, tmp_path))
    assert decision.exit_code == 1
    assert any("not verified" in f for f in decision.findings)
