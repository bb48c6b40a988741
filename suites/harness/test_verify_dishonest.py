"""``beacon verify`` against small frame-protocol servers, one honest and many dishonest.

Each fixture is a FastAPI app served on loopback (``harness.inproc.serving``)
that speaks the frame protocol honestly except for one flaw; verify must turn
exactly the check that names that flaw red, and nothing else. The honest one
is green (its unverifiable checks are reported as not verified, never passed).
The same servers carry the baseline semantics and the exit codes of the
installed command, and the promote gate's reading of a verify report.
"""

from __future__ import annotations

import base64
import json
import math
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from xml.etree import ElementTree as ET

import pytest
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response, StreamingResponse

from harness.gating import Decision, Outcome, record_verify, write_evidence
from harness.inproc import serving
from harness.verify import Report, Status, VerifyOptions, run_verify, write_reports

GOOD, OTHER = "good-token", "other-token"
OWNERS = {GOOD: "alice", OTHER: "bob"}
BODY_CAP = 64 * 1024
MAX_AFTER = 10**9

# --- the servers -----------------------------------------------------------------------------


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"non-strict JSON constant {name}")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"number out of range: {text[:20]}")
    return value


def _honest_prose() -> list[str]:
    return ['Harbor Tower has at least 173 photos matching "hard hats". ', "These 10 are shown."]


PROSE: dict[str, list[str]] = {
    "overclaim": ["I found 10 photos of missing hard hats."],
    "exactly-under-lower-bound": ["There are exactly 173 photos of missing hard hats."],
    "none-over-unknown": ["There are none."],
    "all-under-lower-bound": ["All of them are shown as cards."],
    "restates-denial": ["Your licence tier does not include photo search."],
    "population-from-a-sample": ["The photos are on Level 7."],
    "mixed-subject": ["Of at least 173 matches these 10 are on Level 7."],
}


def _script(flaw: str | None, turn_id: str, session_id: str | None, mode: str) -> list[Any]:
    """The frames of one turn, as (event, data) pairs, before seq numbers are stamped."""
    unknown = flaw == "none-over-unknown"
    denied = flaw == "restates-denial"
    call = {"call_id": "call_1", "tool": "search_photos", "arguments": {"query": "hard hats"}}
    frames: list[Any] = [("start", {"session_id": session_id, "mode": mode})]
    if denied:
        frames.append(("notice", {"kind": "denied", "text": "Photo search is not available."}))
    else:
        frames += [
            ("plan", {"round": 1, "purpose": "gather", "calls": [call]}),
            ("tool_call", call),
        ]
    frames.append(
        (
            "tool_result",
            {
                "call_id": "call_1",
                "tool": "search_photos",
                "status": "denied" if denied else "ok",
                "grade": "UNKNOWN" if unknown or denied else "LOWER_BOUND",
                "emptiness": "unknown" if unknown or denied else "non_empty",
                "returned": None if unknown or denied else 10,
                "bytes": 0 if denied else 1200,
            },
        )
    )
    lower = not (unknown or denied)
    citation = {
        "id": "ph-000223",
        "source": "search_photos",
        "kind": "photo",
        "title": "Level 7: PPE breach",
        "deep_link": "beacon:photo/ph-000223?project=prj-harbor-tower",
        "target": {"kind": "photo", "id": "ph-000223", "project_id": "prj-harbor-tower"},
    }
    references = (
        "references",
        {
            "citations": [citation] if lower else [],
            "counts": [
                {
                    "source": "search_photos",
                    "slot": "c1",
                    "displayed": 10 if lower else 0,
                    "total": 173 if lower else None,
                    "total_is_lower_bound": lower,
                    "has_more": lower,
                    "grade": "LOWER_BOUND" if lower else "UNKNOWN",
                }
            ],
            "complete": False,
        },
    )
    prose = PROSE.get(flaw or "", _honest_prose())
    deltas = [("delta", {"text": text}) for text in prose]
    frames += [*deltas, references] if flaw == "delta-first" else [references, *deltas]
    frames.append(("done", {"finish_reason": "stop", "answer": "".join(prose)}))
    if flaw == "two-terminals":
        frames.append(("error", {"code": "internal", "message": "and then it failed"}))
    return frames


def _stamp(turn_id: str, frames: list[Any]) -> list[tuple[str, int, str]]:
    out = []
    for seq, (event, data) in enumerate(frames, start=1):
        body = {"turn_id": turn_id, "seq": seq, **data}
        out.append((event, seq, json.dumps(body, separators=(",", ":"))))
    return out


def _sse(frames: list[tuple[str, int, str]]) -> Iterator[str]:
    for event, seq, data in frames:
        yield f"event: {event}\nid: {seq}\ndata: {data}\n\n"


def _error(status: int, code: str) -> JSONResponse:
    return JSONResponse({"error": {"code": code}}, status)


def frame_server(flaw: str | None = None) -> FastAPI:
    """A frame-protocol chat server, honest but for ``flaw``."""
    app = FastAPI()
    turns: dict[str, tuple[str, list[tuple[str, int, str]]]] = {}
    sessions: dict[str, str] = {}

    def owner(request: Request) -> str | None:
        scheme, _, token = request.headers.get("authorization", "").partition(" ")
        if scheme != "Bearer":
            return None
        if flaw == "accepts-alg-none" and token.count(".") == 2:
            header = token.split(".")[0]
            padded = header + "=" * (-len(header) % 4)
            try:
                if json.loads(base64.urlsafe_b64decode(padded)).get("alg") == "none":
                    return "mallory"
            except ValueError:
                return None
        return OWNERS.get(token)

    @app.post("/v1/turns")
    async def post_turn(request: Request) -> Response:
        who = owner(request)
        if who is None:
            return _error(401, "auth_missing_token")
        raw = await request.body()
        if len(raw) > BODY_CAP:
            return _error(413, "body_too_large")
        try:
            if flaw == "nan-500":
                # Python's json takes NaN and Infinity; then the handler trips on them
                body = json.loads(raw, parse_float=_finite)
                if any(isinstance(v, float) and not math.isfinite(v) for v in body.values()):
                    return Response("Internal Server Error", 500)
            body = json.loads(raw, parse_constant=_refuse_constant, parse_float=_finite)
            message = body["message"]
            message.encode("utf-8")  # a lone surrogate cannot be
        except (ValueError, RecursionError, KeyError, TypeError, AttributeError):
            return _error(422, "invalid_body")
        mode = body.get("mode", "single")
        turn_id = f"t_{uuid.uuid4().hex[:20]}"
        session_id = f"s_{uuid.uuid4().hex[:20]}" if mode == "chat" else None
        if session_id is not None:
            sessions[session_id] = who
        # A flaw that leaves an answer without a graded count or a citation is the photo
        # questions' only: the others answer, so the run's evidence holds (answers.evidence)
        # and exactly the flaw's check goes red.
        scoped = flaw not in PHOTOS_ONLY or "Photos" in str(message)
        frames = _stamp(turn_id, _script(flaw if scoped else None, turn_id, session_id, mode))
        turns[turn_id] = (who, frames)
        return StreamingResponse(_sse(frames), media_type="text/event-stream")

    @app.get("/v1/turns/{turn_id}/events")
    def events(turn_id: str, request: Request, after: str = "0") -> Response:
        who = owner(request)
        if who is None:
            return _error(401, "auth_missing_token")
        try:
            start = int(after)
        except ValueError:
            return _error(422, "bad_after")
        if not 0 <= start <= MAX_AFTER:
            return _error(422, "bad_after")
        found = turns.get(turn_id)
        if found is None:
            return _error(404, "turn_not_found")
        if found[0] != who:
            return (
                _error(403, "forbidden")
                if flaw == "other-user-403"
                else _error(404, "turn_not_found")
            )
        frames = [f for f in found[1] if f[1] > start]
        if flaw == "replay-differs":
            frames = [(e, s, d.replace("at least 173", "at least 180")) for e, s, d in frames]
        return StreamingResponse(_sse(frames), media_type="text/event-stream")

    @app.get("/v1/sessions/{session_id}")
    def session(session_id: str, request: Request) -> Response:
        who = owner(request)
        if who is None:
            return _error(401, "auth_missing_token")
        if sessions.get(session_id) != who:
            return _error(404, "session_not_found")
        return JSONResponse({"session_id": session_id, "messages": []})

    return app


PHOTOS_ONLY = frozenset({"none-over-unknown", "restates-denial"})
# flaw → the one check that must go red
DISHONEST: dict[str, str] = {
    "overclaim": "prose.count-forms",
    "two-terminals": "frames.one-terminal",
    "delta-first": "frames.references-before-delta",
    "none-over-unknown": "prose.absence",
    "nan-500": "input.non-strict-json",
    "replay-differs": "reattach.replay",
    "exactly-under-lower-bound": "prose.count-forms",
    "all-under-lower-bound": "prose.completeness",
    "restates-denial": "prose.denial",
    "population-from-a-sample": "prose.population",
    "mixed-subject": "prose.subject",
    "other-user-403": "auth.other-user",
    "accepts-alg-none": "auth.alg-none",
}
# What a black-box run cannot reach on these servers (no JWKS, no issuer, no stub).
UNVERIFIABLE = {"auth.hs256-public-key", "auth.expired"}


@pytest.fixture(scope="module")
def honest() -> Iterator[str]:
    with serving(lambda _origin: frame_server()) as origin:
        yield origin


def _verify(origin: str, **options: Any) -> Report:
    return run_verify(VerifyOptions(target=origin, token=GOOD, other_token=OTHER, **options))


def _failed_checks(report: Report) -> set[str]:
    return {r.check for r in report.of(Status.FAIL, Status.STALE)}


# --- the verdicts ------------------------------------------------------------------------------


def test_the_honest_server_is_green_and_what_it_cannot_reach_is_not_verified(honest: str) -> None:
    report = _verify(honest)
    assert report.of(Status.FAIL) == [], [(r.id, r.message) for r in report.of(Status.FAIL)]
    assert report.exit_code == 0
    assert {r.check for r in report.of(Status.NOT_VERIFIED)} == UNVERIFIABLE | {
        c
        for c in {r.check for r in report.results}
        if c.startswith("scenario.") or c == "controlled.scenarios"
    }
    assert report.tally()["pass"] >= 25


@pytest.mark.parametrize("flaw", list(DISHONEST))
def test_each_dishonest_server_turns_exactly_its_check_red(flaw: str) -> None:
    with serving(lambda _origin: frame_server(flaw)) as origin:
        report = _verify(origin)
    assert _failed_checks(report) == {DISHONEST[flaw]}, [
        (r.id, r.message) for r in report.of(Status.FAIL)
    ]
    assert report.exit_code == 1
    failure = report.of(Status.FAIL)[0]
    assert failure.message and failure.evidence  # the report says what and shows it


def test_the_overclaim_is_named_with_its_sentence_and_rule() -> None:
    with serving(lambda _origin: frame_server("overclaim")) as origin:
        report = _verify(origin, checks=("prose.count-forms",))
    first = report.of(Status.FAIL)[0]
    assert first.evidence["sentences"][0] == {
        "rule": "free_count",
        "token": "10",
        "sentence": "I found 10 photos of missing hard hats.",
        "judged_as": "I found 10 photos of missing hard hats.",
    }
    assert first.evidence["standing"]["counts"][0]["grade"] == "LOWER_BOUND"


# --- the baseline ------------------------------------------------------------------------------


def test_a_baselined_failure_passes_the_run(tmp_path: Path) -> None:
    baseline = tmp_path / "baseline.txt"
    baseline.write_text("# known: the narrator overclaims\nprose.count-forms\n")
    with serving(lambda _origin: frame_server("overclaim")) as origin:
        report = _verify(origin, baseline=baseline, baseline_entries=["prose.count-forms"])
    assert report.exit_code == 0
    assert report.of(Status.FAIL) == []
    assert {r.check for r in report.of(Status.BASELINED)} == {"prose.count-forms"}


def test_a_baselined_check_that_now_passes_fails_the_run(honest: str) -> None:
    report = _verify(honest, baseline_entries=["prose.count-forms::photos-en"])
    assert report.exit_code == 1
    (stale,) = report.of(Status.STALE)
    assert stale.id == "prose.count-forms::photos-en"
    assert "passes" in stale.message


def test_a_baseline_entry_naming_nothing_is_reported(honest: str) -> None:
    report = _verify(honest, checks=("frames",), baseline_entries=["prose.absence::nowhere"])
    assert report.unmatched_baseline == ["prose.absence::nowhere"]
    assert report.exit_code == 0


# --- the installed command: exit codes and its three outputs --------------------------------------


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
        report = _verify(origin)
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
    report = _verify(honest)
    decision = Decision("promote")
    record_verify(tmp_path, decision, report, write_reports(report, tmp_path))
    assert decision.exit_code == 1
    assert any("not verified" in f for f in decision.findings)
