"""``beacon verify`` run by hand against targets that are not a working chat server.

An unreachable port and a server that answers turns with HTML cannot be tested at
all: one line naming the fix, exit 3 (not a failing server's 1). A server that
refuses ``X-Beacon-Scenario`` gets one clear finding, and its controlled checks
are reported as not run (never as passed), in one line. A server that streams
forever is bounded by the turn deadline. Each check prints a line as it finishes.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.responses import HTMLResponse, StreamingResponse

from beacon.cli.up import free_port
from harness.chat_process import chat_env, chat_process
from harness.inproc import serving
from harness.stack import Stack
from harness.verify.model import EXIT_TARGET, Status
from harness.verify.run import VerifyOptions, run_verify

pytestmark = pytest.mark.e2e


def _verify(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "beacon", "verify", *args],
        capture_output=True,
        text=True,
        timeout=300,
    )


def _html_app(_origin: str) -> FastAPI:
    app = FastAPI()

    @app.api_route("/{path:path}", methods=["GET", "POST"])
    async def page(path: str) -> HTMLResponse:
        return HTMLResponse("<html><body>a shop front</body></html>")

    return app


def _forever_app(_origin: str) -> FastAPI:
    app = FastAPI()

    @app.post("/v1/turns")
    async def turns() -> StreamingResponse:
        async def beat() -> AsyncIterator[bytes]:
            yield b'event: start\nid: 1\ndata: {"turn_id":"t_x","seq":1}\n\n'
            while True:
                await asyncio.sleep(0.2)
                yield b": still here\n\n"

        return StreamingResponse(beat(), media_type="text/event-stream")

    return app


@pytest.fixture(scope="module")
def html_server() -> Iterator[str]:
    with serving(_html_app) as origin:
        yield origin


def test_an_unreachable_target_is_one_line_and_exit_3(tmp_path: Path) -> None:
    began = time.monotonic()
    done = _verify(
        "--target", f"http://127.0.0.1:{free_port()}", "--token", "t", "--out-dir", str(tmp_path)
    )
    assert done.returncode == EXIT_TARGET, done.stdout + done.stderr
    (line,) = done.stderr.strip().splitlines()
    assert line.startswith("verify: cannot reach http://127.0.0.1:") and "fix --target" in line
    assert done.stdout.strip() == ""
    assert time.monotonic() - began < 60


def test_a_server_that_answers_turns_with_html_is_one_line_and_exit_3(
    html_server: str, tmp_path: Path
) -> None:
    done = _verify("--target", html_server, "--token", "t", "--out-dir", str(tmp_path))
    assert done.returncode == EXIT_TARGET, done.stdout + done.stderr
    (line,) = done.stderr.strip().splitlines()
    assert "answered no turn with an SSE stream" in line and "text/html" in line


def test_a_stream_that_never_ends_is_bounded_by_the_turn_deadline() -> None:
    with serving(_forever_app) as origin:
        began = time.monotonic()
        report = run_verify(
            VerifyOptions(target=origin, token="t", checks=("turn.stream",), deadline_s=2.0)
        )
        took = time.monotonic() - began
    assert took < 60, took
    failed = report.of(Status.FAIL)
    assert failed and all(r.check == "turn.stream" for r in failed)
    assert any("did not end within 2 s" in r.message for r in failed)


def test_a_target_that_refuses_scenarios_gets_one_finding_and_no_controlled_pass(
    stack: Stack, tmp_path: Path
) -> None:
    env = chat_env(stack, tmp_path, BEACON_SCENARIOS="deny")
    with chat_process(env) as (url, _):
        done = _verify("--target", url, "--mcp", stack.mcp_url, "--out-dir", str(tmp_path / "out"))
    out = done.stdout
    assert done.returncode == 1, out + done.stderr
    refused = [line for line in out.splitlines() if "controlled.scenarios" in line]
    assert len(refused) >= 1 and any(
        line.startswith("FAIL: controlled.scenarios") for line in refused
    )
    not_run = [line for line in out.splitlines() if "refuses X-Beacon-Scenario" in line]
    assert len(not_run) == 1 and not_run[0].startswith("not verified (")
    # A line per check as it ran, then the summary.
    assert any(line.startswith("frames.one-terminal") for line in out.splitlines())
    html = (tmp_path / "out" / "report.html").read_text()
    assert "not run" in html
    checks = json.loads((tmp_path / "out" / "checks.json").read_text())["checks"]
    scenario = [c for c in checks if c["check"].startswith("scenario.")]
    assert scenario and all(c["status"] == "not_verified" for c in scenario)
