"""Small frame-protocol chat servers for verify's self-tests: one honest, and one per flaw.

Each is a FastAPI app served on loopback (``harness.inproc.serving``) that speaks the
frame protocol honestly except for one flaw; ``DISHONEST`` names the one check each
flaw must turn red (``test_verify_dishonest.py``, ``test_verify_exits.py``).
"""

from __future__ import annotations

import base64
import json
import math
import uuid
from collections.abc import Iterator
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response, StreamingResponse

from harness.verify import Report, Status, VerifyOptions, run_verify

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


def _stamp(turn_id: str, frames: list[Any], gap: bool = False) -> list[tuple[str, int, str]]:
    """Seq 1, 2, … stamped on each frame (``gap``: the third frame's number skipped)."""
    out = []
    for index, (event, data) in enumerate(frames, start=1):
        seq = index + 1 if gap and index >= 3 else index
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
        script = _script(flaw if scoped else None, turn_id, session_id, mode)
        frames = _stamp(turn_id, script, gap=flaw == "seq-gap")
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
    "seq-gap": "frames.seq",
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


def verify_at(origin: str, **options: Any) -> Report:
    return run_verify(VerifyOptions(target=origin, token=GOOD, other_token=OTHER, **options))


def failed_checks(report: Report) -> set[str]:
    return {r.check for r in report.of(Status.FAIL, Status.STALE)}
