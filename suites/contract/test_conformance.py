"""The MCP project's own conformance suite, run against the installed stub (``make conformance``).

Installed by ``make setup`` (``npm ci`` from the committed lock), never at test
time. The protocol-level scenarios must pass; the rest are baselined with reasons.
"""

from __future__ import annotations

import json
import shutil
import subprocess
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


@pytest.mark.skipif(
    not CLI.exists() or shutil.which("node") is None,
    reason="run `make setup` (npm ci) to install the conformance suite",
)
def test_the_stub_passes_the_protocol_scenarios_of_the_conformance_suite(tmp_path: Path) -> None:
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
