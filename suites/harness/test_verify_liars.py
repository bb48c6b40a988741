"""``beacon verify`` against targets that keep every rule by saying nothing, or never stop.

Each liar speaks the protocol's edges correctly — no bearer is a 401, hostile
input a 4xx, another user's turn the same 404 as a missing one — and lies in
its turns: an empty ``done`` for every question (every rule of the prose holds
over silence, so the evidence itself is required), heartbeats forever, one
``data:`` line that never ends, valid frames forever. Verify runs as the
installed command in a child process, so its wall time and its peak memory are
its own (``os.wait4`` reads that child's rusage alone).
"""

from __future__ import annotations

import asyncio
import json
import math
import os
import socketserver
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response, StreamingResponse

from harness.inproc import serving
from harness.verify.bounded import MAX_FRAMES, MAX_LINE_BYTES
from harness.verify.model import CHECKS, EXIT_FAILED
from harness.verify.run import VerifyOptions, VerifyTargetError, run_verify

pytestmark = pytest.mark.e2e

GOOD, OTHER = "good-token", "other-token"
BODY_CAP = 64 * 1024
MAX_RSS_MB = 300
Answer = Callable[[str], AsyncIterator[bytes]]  # turn_id → its stream after the start frame


def _frame(event: str, seq: int, turn_id: str, **data: Any) -> bytes:
    body = json.dumps({"turn_id": turn_id, "seq": seq, **data}, separators=(",", ":"))
    return f"event: {event}\nid: {seq}\ndata: {body}\n\n".encode()


async def empty_done(turn_id: str) -> AsyncIterator[bytes]:
    yield _frame("done", 2, turn_id, finish_reason="stop", answer="")


async def endless_comments(turn_id: str) -> AsyncIterator[bytes]:
    while True:
        await asyncio.sleep(0.05)
        yield b": ping\n\n"


async def endless_heartbeats(turn_id: str) -> AsyncIterator[bytes]:
    for seq in range(2, 10**9):
        await asyncio.sleep(0.05)
        yield _frame("heartbeat", seq, turn_id)


async def endless_line(turn_id: str) -> AsyncIterator[bytes]:
    yield b"event: delta\nid: 2\ndata: "
    chunk = b"x" * 65_536
    while True:
        yield chunk
        await asyncio.sleep(0)  # let the loop serve the other turns


async def endless_frames(turn_id: str) -> AsyncIterator[bytes]:
    for seq in range(2, 10**9):
        yield _frame("heartbeat", seq, turn_id)
        await asyncio.sleep(0)


def _error(status: int, code: str) -> JSONResponse:
    return JSONResponse({"error": {"code": code}}, status)


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError("out of range")
    return value


def _refuse(name: str) -> Any:
    raise ValueError(name)


def liar(answer: Answer) -> FastAPI:
    """A frame-protocol server whose edges are correct and whose turns are ``answer``."""
    app = FastAPI()
    turns: dict[str, tuple[str, bytes]] = {}  # turn_id → (owner, its start frame)
    sessions: dict[str, str] = {}

    async def stream(turn_id: str) -> AsyncIterator[bytes]:
        yield turns[turn_id][1]
        async for chunk in answer(turn_id):
            yield chunk

    def owner(request: Request) -> str | None:
        scheme, _, token = request.headers.get("authorization", "").partition(" ")
        # The run's own tokens, and those the fake stub below minted.
        ok = scheme == "Bearer" and (token in (GOOD, OTHER) or token.startswith("tok-"))
        return token if ok else None

    @app.post("/v1/turns")
    async def post_turn(request: Request) -> Response:
        who = owner(request)
        if who is None:
            return _error(401, "auth_missing_token")
        raw = await request.body()
        if len(raw) > BODY_CAP:
            return _error(413, "body_too_large")
        try:
            body = json.loads(raw, parse_constant=_refuse, parse_float=_finite)
            str(body["message"]).encode("utf-8")
        except (ValueError, RecursionError, KeyError, TypeError):
            return _error(422, "invalid_body")
        turn_id = f"t_{uuid.uuid4().hex[:20]}"
        mode = "chat" if body.get("mode") == "chat" else "single"
        session_id = f"s_{uuid.uuid4().hex[:20]}" if mode == "chat" else None
        if session_id is not None:
            sessions[session_id] = who
        start = _frame("start", 1, turn_id, session_id=session_id, mode=mode)
        turns[turn_id] = (who, start)
        return StreamingResponse(stream(turn_id), media_type="text/event-stream")

    @app.get("/v1/turns/{turn_id}/events")
    def events(turn_id: str, request: Request, after: str = "0") -> Response:
        who = owner(request)
        if who is None:
            return _error(401, "auth_missing_token")
        if not after.isdigit() or len(after) > 9:
            return _error(422, "bad_after")
        if turn_id not in turns or turns[turn_id][0] != who:
            return _error(404, "turn_not_found")
        return StreamingResponse(stream(turn_id), media_type="text/event-stream")

    @app.get("/v1/sessions/{session_id}")
    def session(session_id: str, request: Request) -> Response:
        who = owner(request)
        if who is None:
            return _error(401, "auth_missing_token")
        if sessions.get(session_id) != who:
            return _error(404, "session_not_found")
        return JSONResponse({"session_id": session_id, "messages": []})

    return app


def fake_stub(_origin: str) -> FastAPI:
    """The stub's dev endpoints (SPEC §2.4) as a liar's upstream would answer them."""
    app = FastAPI()

    @app.post("/dev/tokens")
    async def tokens(request: Request) -> dict[str, str]:
        return {"token": f"tok-{(await request.json())['sub']}"}

    @app.get("/.well-known/jwks.json")
    def jwks() -> dict[str, Any]:
        return {"keys": []}

    @app.get("/dev/requests")
    def requests() -> dict[str, Any]:
        return {"requests": []}

    return app


@dataclass(frozen=True, slots=True)
class Ran:
    code: int
    stdout: str
    seconds: float
    max_rss_mb: float
    checks: list[dict[str, Any]]

    def failed(self, check: str) -> list[dict[str, Any]]:
        return [c for c in self.checks if c["check"] == check and c["status"] == "fail"]


def _verify(tmp_path: Path, *args: str, kill_after_s: float = 90.0) -> Ran:
    """``beacon verify ARGS`` as a child: its exit code, output, wall time and peak RSS."""
    out = tmp_path / "out"
    began = time.monotonic()
    with (tmp_path / "stdout").open("w") as stdout, (tmp_path / "stderr").open("w") as stderr:
        child = subprocess.Popen(
            [sys.executable, "-m", "beacon", "verify", *args, "--out-dir", str(out)],
            stdout=stdout,
            stderr=stderr,
        )
        killer = threading.Timer(kill_after_s, child.kill)  # a hung verify is killed, and red
        killer.start()
        peak = _HighWater(child.pid)
        try:
            _, status, _usage = os.wait4(child.pid, 0)
        finally:
            killer.cancel()
            peak.stop()
    child.returncode = os.waitstatus_to_exitcode(status)
    seconds = time.monotonic() - began
    text = (tmp_path / "stdout").read_text() + (tmp_path / "stderr").read_text()
    assert child.returncode >= 0, f"verify was killed after {seconds:.0f} s: {text}"
    report = out / "checks.json"
    checks = json.loads(report.read_text())["checks"] if report.exists() else []
    return Ran(child.returncode, text, seconds, peak.mb, checks)


class _HighWater:
    """The child's own peak RSS (VmHWM, which exec resets), read while it runs.

    Not ``wait4``'s ``ru_maxrss``: that counts the pages the child shared with this
    (large, long-lived) test process between fork and exec — 377 MB in a full run.
    """

    def __init__(self, pid: int) -> None:
        self.mb = 0.0
        self._status = Path(f"/proc/{pid}/status")
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._watch, daemon=True)
        self._thread.start()

    def _watch(self) -> None:
        while not self._done.wait(0.02):
            try:
                # Before its exec the child is still a copy of this process: not yet verify.
                if b"verify" not in (self._status.parent / "cmdline").read_bytes():
                    continue
                lines = self._status.read_text().splitlines()
            except OSError:
                return  # gone: the last reading stands
            for line in lines:
                if line.startswith("VmHWM:"):
                    self.mb = max(self.mb, int(line.split()[1]) / 1024)

    def stop(self) -> None:
        self._done.set()
        self._thread.join(5)


@pytest.fixture(scope="module")
def stub() -> Iterator[str]:
    with serving(fake_stub) as origin:
        yield f"{origin}/mcp"


def _serve(answer: Answer) -> Any:
    return serving(lambda _origin: liar(answer))


# --- silence ------------------------------------------------------------------------------


@pytest.mark.timeout(180)
def test_a_server_answering_every_question_with_an_empty_done_fails_naming_the_missing_evidence(
    stub: str, tmp_path: Path
) -> None:
    with _serve(empty_done) as origin:
        ran = _verify(tmp_path, "--target", origin, "--mcp", stub, "--turn-deadline", "20")
    assert ran.code == EXIT_FAILED, ran.stdout
    # Its protocol is right: what fails is the evidence, and only that.
    red = {c["check"] for c in ran.checks if c["status"] == "fail"}
    assert red == {"answers.evidence"} | {c for c in CHECKS if c.startswith("scenario.")}, red
    # Black-box: across the questions, no graded count, no citation, no word.
    evidence = {c["case"]: c["message"] for c in ran.failed("answers.evidence")}
    assert set(evidence) == {"graded-count", "citation", "narration"}, ran.stdout
    assert "no answer to the 8 questions carried a graded count" in evidence["graded-count"]
    assert "FAIL: answers.evidence::citation: no answer to the 8 questions carried a citation" in (
        ran.stdout
    )
    # Controlled: every scenario fails on the evidence it was to produce, none passes.
    scenario = [c for c in ran.checks if c["check"].startswith("scenario.")]
    assert {c["check"] for c in scenario} == {c for c in CHECKS if c.startswith("scenario.")}
    assert all(c["status"] == "fail" for c in scenario), [(c["id"], c["status"]) for c in scenario]
    lacks = {c["id"]: c["message"] for c in scenario}
    assert all(m.startswith("the frames lack the scenario's evidence: ") for m in lacks.values())
    assert (
        "a search_photos count graded EXACT or LOWER_BOUND of 0 and no more"
        in (lacks["scenario.zero-hits::photos-en"])
    )
    assert (
        "a count graded LOWER_BOUND of 3,000 with more; a citation"
        in (lacks["scenario.saturated-cap::list-en"])
    )
    assert "a notice of kind denied" in lacks["scenario.denied-tier::default-model"]
    assert "a notice of kind failure" in lacks["scenario.inband-502::photos-en"]


# --- streams that never end -----------------------------------------------------------------


@pytest.mark.timeout(120)
@pytest.mark.parametrize(
    "answer", [endless_comments, endless_heartbeats], ids=["comments", "heartbeat-frames"]
)
def test_heartbeats_forever_end_the_turn_at_its_deadline_counted_from_the_request(
    answer: Answer, tmp_path: Path
) -> None:
    with _serve(answer) as origin:
        ran = _verify(
            tmp_path,
            *("--target", origin, "--token", GOOD, "--other-token", OTHER),
            *("--turn-deadline", "3"),
        )
    assert ran.code == EXIT_FAILED, ran.stdout
    late = ran.failed("turn.stream")
    assert len(late) == 8, ran.stdout  # every question, each with its one-line finding
    assert all("the stream did not end within 3 s" in c["message"] for c in late)
    # A beat every 50 ms moved no deadline: each turn took its 3 s, not more.
    assert max(c["seconds"] for c in late) < 4.5, [c["seconds"] for c in late]
    assert ran.seconds < 45, ran.seconds


@pytest.mark.timeout(120)
def test_a_line_that_never_ends_stops_at_the_line_cap_in_bounded_memory(tmp_path: Path) -> None:
    with _serve(endless_line) as origin:
        ran = _verify(
            tmp_path,
            *("--target", origin, "--token", GOOD, "--other-token", OTHER),
            *("--turn-deadline", "8", "--check", "turn.stream"),
        )
    assert 0 < ran.max_rss_mb < MAX_RSS_MB, ran.max_rss_mb  # iter_lines: 1.9 GB in 18 s
    assert ran.code == EXIT_FAILED, ran.stdout
    capped = ran.failed("turn.stream")
    assert len(capped) == 8, ran.stdout
    cap = f"a line of the stream passed {MAX_LINE_BYTES:,} bytes without ending"
    assert all(cap in c["message"] for c in capped), [c["message"] for c in capped]
    assert max(c["seconds"] for c in capped) < 8, [c["seconds"] for c in capped]


@pytest.mark.timeout(120)
def test_valid_frames_forever_stop_at_the_frame_cap_in_bounded_memory(tmp_path: Path) -> None:
    with _serve(endless_frames) as origin:
        ran = _verify(
            tmp_path,
            *("--target", origin, "--token", GOOD, "--other-token", OTHER),
            *("--turn-deadline", "30", "--check", "turn.stream", "--workers", "2"),
        )
    assert 0 < ran.max_rss_mb < MAX_RSS_MB, ran.max_rss_mb
    assert ran.code == EXIT_FAILED, ran.stdout
    capped = ran.failed("turn.stream")
    assert len(capped) == 8, ran.stdout
    cap = f"the stream passed {MAX_FRAMES:,} frames; reading stopped at the frame cap"
    assert all(cap in c["message"] for c in capped), [c["message"] for c in capped]


class _Trickle(socketserver.BaseRequestHandler):
    """Answers a turn with response headers a byte every 50 ms, never finished (a read
    timeout is reset by each byte; h11 gives up only at 16 KiB of them, 14 minutes)."""

    def handle(self) -> None:
        request = self.request.recv(65_536)
        if not request.startswith(b"POST /v1/turns"):
            self.request.sendall(b"HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n")
            return
        self.request.sendall(b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\nx-slow: ")
        beat = threading.Event()  # never set: a bounded pause
        with suppress(OSError):
            while not beat.wait(0.05):
                self.request.sendall(b"a")


@pytest.mark.timeout(30, method="thread")  # in process: a hang ends the run, red
def test_headers_trickled_forever_are_cut_at_the_deadline_by_the_watchdog() -> None:
    server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), _Trickle)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    origin = f"http://127.0.0.1:{server.server_address[1]}"
    began = time.monotonic()
    try:
        # No turn ever got its headers: not a stream to judge (exit 3), said in one line.
        with pytest.raises(VerifyTargetError, match=r"did not end within 2 s"):
            run_verify(
                VerifyOptions(target=origin, token=GOOD, checks=("turn.stream",), deadline_s=2.0)
            )
    finally:
        server.shutdown()
        server.server_close()
    assert time.monotonic() - began < 12  # two waves of four turns, 2 s each
