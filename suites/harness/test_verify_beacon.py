"""``beacon verify`` against Beacon itself: the stack ``beacon up`` starts, as a deployment.

One controlled run (``--mcp``: dev tokens, scenarios, the request log) through
the installed command, read back from its JUnit, checks.json and HTML; one
black-box run (a token only) whose controlled checks are reported as not
verified; and ``beacon probe NAME --target URL`` against the same deployment.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any
from xml.etree import ElementTree as ET

import pytest

from harness.stack import Stack
from harness.verify.model import CHECKS

pytestmark = pytest.mark.e2e


def _beacon(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "beacon", *args], capture_output=True, text=True, timeout=180
    )


def _cases(junit: Path) -> list[ET.Element]:
    suite = ET.parse(junit).getroot().find("testsuite")
    assert suite is not None
    return suite.findall("testcase")


@pytest.fixture(scope="module")
def controlled(stack: Stack, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    out = tmp_path_factory.mktemp("verify")
    done = _beacon(
        "verify", "--target", stack.chat_url, "--mcp", stack.mcp_url, "--out-dir", str(out)
    )
    return {"done": done, "out": out}


def test_beacon_passes_every_check_of_its_own_verify(controlled: dict[str, Any]) -> None:
    done: subprocess.CompletedProcess[str] = controlled["done"]
    assert done.returncode == 0, done.stdout + done.stderr
    cases = _cases(controlled["out"] / "junit.xml")
    assert len(cases) >= 25
    assert [c.get("classname") for c in cases if len(c)] == []  # no failure, nothing skipped
    checks = json.loads((controlled["out"] / "checks.json").read_text())
    assert checks["mode"] == "controlled" and checks["summary"]["not_verified"] == 0
    assert {c["check"] for c in checks["checks"]} == set(CHECKS)  # every check ran
    assert checks["seconds"] < 50  # mostly the expired token waiting out the clock leeway
    assert "beacon verify: PASSED" in (controlled["out"] / "report.html").read_text()


def test_the_prose_was_judged_in_five_locales(controlled: dict[str, Any]) -> None:
    checks = json.loads((controlled["out"] / "checks.json").read_text())
    judged = {
        c["case"].split("-")[-1] for c in checks["checks"] if c["check"] == "prose.count-forms"
    }
    assert {"en", "de", "es", "ko", "ja"} <= judged


def test_black_box_leaves_the_controlled_checks_not_verified(stack: Stack, tmp_path: Path) -> None:
    done = _beacon(
        "verify",
        "--target",
        stack.chat_url,
        "--token",
        stack.token(),
        "--check",
        "frames",
        "--check",
        "prose",
        "--check",
        "scenario",
        "--out-dir",
        str(tmp_path),
    )
    assert done.returncode == 0, done.stdout + done.stderr  # not verified is no failure …
    checks = json.loads((tmp_path / "checks.json").read_text())
    unverified = {c["check"] for c in checks["checks"] if c["status"] == "not_verified"}
    assert unverified == {c for c in CHECKS if c.startswith("scenario.")}
    assert checks["summary"]["pass"] == len(checks["checks"]) - checks["summary"]["not_verified"]
    skipped = [c for c in _cases(tmp_path / "junit.xml") if c.find("skipped") is not None]
    assert len(skipped) == checks["summary"]["not_verified"]  # … and never a pass
    assert "Not verified (" in (tmp_path / "report.html").read_text()


def test_a_probe_runs_against_a_deployment(stack: Stack) -> None:
    ran = _beacon("probe", "sse-client", "--target", stack.chat_url, "--token", stack.token())
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert "probe sse-client: ok" in ran.stdout
    minted = _beacon("probe", "auth-matrix", "--target", stack.chat_url, "--mcp", stack.mcp_url)
    assert minted.returncode == 0, minted.stdout + minted.stderr
    lacking = _beacon("probe", "auth-matrix", "--target", stack.chat_url, "--token", "t")
    assert lacking.returncode == 2 and "needs --mcp" in lacking.stderr
