"""The MCP project's own conformance suite, run against the installed stub (``make conformance``).

Installed by ``make setup`` (``npm ci`` from the committed lock), never at test
time. The protocol-level scenarios must pass; the rest are baselined with reasons.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from harness.inproc import serving
from harness.stub_process import bearer_proxy, running_stub

ROOT = Path(__file__).resolve().parents[2]
CLI = ROOT / "node_modules" / ".bin" / "conformance"
BASELINE = Path(__file__).with_name("conformance-baseline.yml")
MUST_PASS = {
    "server-initialize",
    "ping",
    "tools-list",
    "server-sse-multiple-streams",
    "dns-rebinding-protection",
}


def missing_tooling() -> str | None:
    if shutil.which("node") is None:
        return "Node is not on PATH"
    if not CLI.exists():
        return "the conformance suite is not installed: run `make setup` (npm ci)"
    return None


def require_tooling() -> None:
    """On a developer's machine a missing Node skips; in CI (``CI=true``) it fails: a
    conformance test that silently never runs is the green dead path the check forbids."""
    if (missing := missing_tooling()) is None:
        return
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"CI must run the MCP conformance suite: {missing}")
    pytest.skip(missing)


def test_the_stub_passes_the_protocol_scenarios_of_the_conformance_suite(tmp_path: Path) -> None:
    require_tooling()
    with (
        running_stub("mcp") as stub,
        serving(lambda _origin: bearer_proxy(stub.origin, stub.token())) as proxy,
    ):
        command = [str(CLI), "server", "--url", f"{proxy}/mcp", "-o", str(tmp_path)]
        run = subprocess.run(
            [*command, "--expected-failures", str(BASELINE)],
            capture_output=True,
            text=True,
            timeout=120,
        )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    statuses: dict[str, Counter[str]] = {}
    for checks in tmp_path.glob("server-*/checks.json"):
        scenario = checks.parent.name.removeprefix("server-").rsplit("-", 6)[0]
        statuses.setdefault(scenario, Counter()).update(
            c["status"] for c in json.loads(checks.read_text())
        )
    for scenario in MUST_PASS:
        assert statuses[scenario]["SUCCESS"] >= 1 and statuses[scenario]["FAILURE"] == 0, scenario


def _run_without_node(tmp_path: Path, ci: str) -> subprocess.CompletedProcess[str]:
    node_id = (
        f"{Path(__file__)}::test_the_stub_passes_the_protocol_scenarios_of_the_conformance_suite"
    )
    env = {**os.environ, "PATH": str(tmp_path), "CI": ci}  # an empty PATH: no node
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-p",
            "no:xdist",
            "-p",
            "no:randomly",
            "-rs",
            node_id,
        ],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
        env=env,
    )


def test_a_missing_node_fails_the_conformance_test_in_ci_and_skips_it_elsewhere(
    tmp_path: Path,
) -> None:
    in_ci = _run_without_node(tmp_path, "true")
    assert in_ci.returncode == 1, in_ci.stdout[-2000:]
    assert "CI must run the MCP conformance suite: Node is not on PATH" in in_ci.stdout
    at_a_desk = _run_without_node(tmp_path, "")
    assert at_a_desk.returncode == 0, at_a_desk.stdout[-2000:]
    assert "1 skipped" in at_a_desk.stdout and "Node is not on PATH" in at_a_desk.stdout
