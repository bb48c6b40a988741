"""Black-box checks that are not a turn: auth fails closed, hostile input is a 4xx.

They need a reachable target and one token. A check whose attack needs what
the command line did not give (the target's public key for the HS256 attack,
a second user's token, an expired token) is *not verified*, with the reason.
"""

from __future__ import annotations

import json
import math
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from harness.verify.http import (
    Answer,
    Stub,
    VerifyHttpError,
    Wire,
    alg_none,
    hs256_with_public_key,
    unverified,
)
from harness.verify.model import PASS, Outcome, Skip, Verdict
from harness.verify.prose import final_answer, frame_data, prose_of, read_counts
from harness.verify.turns import COUNT_QUESTION, TurnRun

OVERSIZED_BYTES = 2 * 1024 * 1024 + 1  # over any sane body cap (Beacon's answer bound is 1 MiB)
ECHO_RUN = 512  # this much of the oversized filler in an answer is an echo of the input
FILLER = "verify-oversized-"
_PROBE_BODY = {"mode": "single", "message": COUNT_QUESTION}
MAX_EXPIRY_WAIT_S = 120.0


@dataclass(frozen=False)  # minted or checked once, on first use, then remembered
class ExpiredToken:
    """An expired token, when the run can have one: given (``--expired-token``), or minted
    at the stub already expired past the verifier's clock leeway (inside the leeway a
    token is still valid). Either is used only once its ``exp`` and the leeway have
    passed: a given token may still be living, and is waited for."""

    given: str | None = None
    stub: Stub | None = None
    leeway_s: float = 30.0
    _token: str | None = field(default=None, init=False)
    _usable_at: float = field(default=0.0, init=False)  # wall clock, seconds
    problem: str | None = field(default=None, init=False)

    def start(self) -> None:
        token = self.given
        if token is None and self.stub is not None:
            try:
                token = self.stub.token("verify-expired", expired_s=math.ceil(self.leeway_s) + 2)
            except VerifyHttpError as exc:
                self.problem = str(exc)
                return
        if token is None:
            return
        exp = unverified(token)[1].get("exp")
        if not isinstance(exp, int | float):
            self.problem = "the expired token carries no exp claim"
            return
        self._usable_at = float(exp) + self.leeway_s + 1
        if self._usable_at - time.time() > MAX_EXPIRY_WAIT_S:
            self.problem = f"the expired token is not expired: exp is {exp - time.time():.0f}s away"
            return
        self._token = token

    @property
    def available(self) -> bool:
        return self._token is not None

    def wait(self) -> str | None:
        remaining = self._usable_at - time.time()
        if remaining > 0:
            threading.Event().wait(remaining)  # bounded by MAX_EXPIRY_WAIT_S
        return self._token


@dataclass(frozen=False)  # the run fills in the public keys it found, or why not
class Credentials:
    token: str
    other: str | None = None
    public_pems: list[bytes] = field(default_factory=list)
    pem_problem: str = "the target's public key is unknown: give --jwks URL or --mcp"
    expired: ExpiredToken = field(default_factory=ExpiredToken)


def _status_verdict(answer: Answer, wanted: Callable[[int], bool], what: str) -> Verdict:
    if answer.status is not None and wanted(answer.status):
        return PASS
    got = answer.error or f"HTTP {answer.status}"
    return Verdict(False, f"{what}: answered {got}", {"status": answer.status, "body": answer.body})


def _post_turn(wire: Wire, token: str | None, content: bytes | None = None) -> Answer:
    body = content if content is not None else json.dumps(_PROBE_BODY).encode()
    return wire.request("POST", "/v1/turns", token, content=body)


def _is_401(status: int) -> bool:
    return status == 401


# --- auth ---------------------------------------------------------------------------------


def auth_no_token(wire: Wire, creds: Credentials, runs: list[TurnRun]) -> dict[str, Outcome]:
    cases: dict[str, Outcome] = {
        "turns": _status_verdict(_post_turn(wire, None), _is_401, "POST /v1/turns without a bearer")
    }
    turn_id = _any_turn_id(runs)
    if turn_id is None:
        cases["reattach"] = Skip("no turn of this run named a turn_id to reattach to")
    else:
        answer = wire.request("GET", f"/v1/turns/{turn_id}/events", None, params={"after": "0"})
        cases["reattach"] = _status_verdict(answer, _is_401, "reattach without a bearer")
    return cases


def auth_alg_none(wire: Wire, creds: Credentials, runs: list[TurnRun]) -> dict[str, Outcome]:
    answer = _post_turn(wire, alg_none(creds.token))
    return {"turns": _status_verdict(answer, _is_401, "an alg=none token")}


def auth_hs256(wire: Wire, creds: Credentials, runs: list[TurnRun]) -> dict[str, Outcome]:
    if not creds.public_pems:
        return {"turns": Skip(creds.pem_problem)}
    for pem in creds.public_pems:
        answer = _post_turn(wire, hs256_with_public_key(creds.token, pem))
        if answer.status != 401:
            return {"turns": _status_verdict(answer, _is_401, "HS256 keyed with the public key")}
    return {"turns": PASS}


def auth_expired(wire: Wire, creds: Credentials, runs: list[TurnRun]) -> dict[str, Outcome]:
    expired = creds.expired
    if not expired.available:
        reason = expired.problem or "no expired token: give --expired-token TOKEN or --mcp"
        return {"turns": Skip(reason)}
    token = expired.wait()
    return {"turns": _status_verdict(_post_turn(wire, token), _is_401, "an expired token")}


_ID_TAIL = re.compile(r"[A-Za-z0-9]")


def missing_like(real: str) -> str:
    """An id of the same shape that names nothing: the part after the last ``_`` zeroed."""
    head, sep, tail = real.rpartition("_")
    zeroed = _ID_TAIL.sub("0", tail) if sep else _ID_TAIL.sub("0", real)
    candidate = f"{head}{sep}{zeroed}" if sep else zeroed
    return candidate if candidate != real else f"{real}0"


def _same_404(wire: Wire, other: str, path: str, real: str, **kw: Any) -> Verdict:
    missing_id = missing_like(real)
    theirs = wire.request("GET", path.format(id=real), other, **kw)
    missing = wire.request("GET", path.format(id=missing_id), other, **kw)
    evidence = {
        "another_users": {"status": theirs.status, "body": theirs.body[:500]},
        "missing": {"status": missing.status, "body": missing.body[:500]},
    }
    if theirs.status != 404:
        return Verdict(False, f"another user's {path} answered {theirs.status}, not 404", evidence)
    if missing.status != 404:
        return Verdict(False, f"a missing {path} answered {missing.status}, not 404", evidence)
    if theirs.body.replace(real, "<id>") != missing.body.replace(missing_id, "<id>"):
        return Verdict(False, "another user's 404 differs from a missing one's", evidence)
    return PASS


def auth_other_user(wire: Wire, creds: Credentials, runs: list[TurnRun]) -> dict[str, Outcome]:
    if creds.other is None:
        skip = Skip("no second user: give --other-token TOKEN or --mcp")
        return {"turn-events": skip, "session": skip}
    chat = next((r for r in runs if r.plan.mode == "chat" and r.streamed.ok), None)
    if chat is None or chat.turn_id is None:
        reason = "the run's chat-mode turn did not stream, so no session to try"
        return {"turn-events": Skip(reason), "session": Skip(reason)}
    cases: dict[str, Outcome] = {
        "turn-events": _same_404(
            wire, creds.other, "/v1/turns/{id}/events", chat.turn_id, params={"after": "0"}
        )
    }
    session = chat.start().get("session_id")
    if not isinstance(session, str) or not session:
        cases["session"] = Verdict(False, "a chat-mode turn started no session")
    else:
        cases["session"] = _same_404(wire, creds.other, "/v1/sessions/{id}", session)
    return cases


# --- hostile input ------------------------------------------------------------------------


def _never_5xx(wire: Wire, token: str, raw: str, what: str) -> Verdict:
    return _status_verdict(_post_turn(wire, token, raw.encode()), lambda s: 400 <= s < 500, what)


def input_non_strict(wire: Wire, creds: Credentials, runs: list[TurnRun]) -> dict[str, Outcome]:
    return {
        "nan": _never_5xx(wire, creds.token, '{"mode": "single", "message": NaN}', "NaN"),
        "infinity": _never_5xx(
            wire, creds.token, '{"mode": "single", "message": "hi", "locale": Infinity}', "Infinity"
        ),
    }


def input_hostile(wire: Wire, creds: Credentials, runs: list[TurnRun]) -> dict[str, Outcome]:
    depth = 50_000
    bodies = {
        "lone-surrogate": '{"mode": "single", "message": "\\ud800"}',
        "overflowing-float": '{"mode": "single", "message": "hi", "capability_hint": 1e999}',
        "huge-integer": '{"mode": "single", "message": "hi", "capability_hint": '
        + "9" * 5000
        + "}",
        "deep-nesting": '{"mode": "single", "message": "hi", "view_context": '
        + "[" * depth
        + "]" * depth
        + "}",
    }
    return {case: _never_5xx(wire, creds.token, raw, case) for case, raw in bodies.items()}


def input_oversized(wire: Wire, creds: Credentials, runs: list[TurnRun]) -> dict[str, Outcome]:
    filler = (FILLER * (OVERSIZED_BYTES // len(FILLER) + 1))[:OVERSIZED_BYTES]
    raw = json.dumps({"mode": "single", "message": filler}).encode()
    answer = _post_turn(wire, creds.token, raw)
    verdict = _status_verdict(answer, lambda s: 400 <= s < 500, f"a {len(raw)}-byte body")
    if verdict.ok and filler[:ECHO_RUN] in answer.body:
        return {
            "2mib": Verdict(
                False,
                f"the {answer.status} answer echoes the oversized input back",
                {"status": answer.status, "body": answer.body[:600]},
            )
        }
    return {"2mib": verdict}


def input_bad_after(wire: Wire, creds: Credentials, runs: list[TurnRun]) -> dict[str, Outcome]:
    turn_id = _any_turn_id(runs)
    if turn_id is None:
        skip = Skip("no turn of this run named a turn_id to reattach to")
        return {"non-numeric": skip, "negative": skip, "huge": skip}
    path = f"/v1/turns/{turn_id}/events"
    out: dict[str, Outcome] = {}
    for case, after in (("non-numeric", "abc"), ("negative", "-1"), ("huge", "1" * 31)):
        answer = wire.request("GET", path, creds.token, params={"after": after})
        out[case] = _status_verdict(answer, lambda s: 400 <= s < 500, f"after={after}")
    return out


# --- evidence ---------------------------------------------------------------------------


def answers_evidence(wire: Wire, creds: Credentials, runs: list[TurnRun]) -> dict[str, Outcome]:
    """Every rule of the prose holds over silence: a target that answers each question
    with an empty ``done`` breaks none. So the run's questions (count questions about
    data the stub holds) must, somewhere, earn a graded count, a citation and a word."""
    asked = [r for r in runs if r.plan.scenario is None]
    if not asked:
        return {case: Skip("no question was asked") for case in EVIDENCE_CASES}
    per_turn = {r.plan.case: _evidence_of(r) for r in asked}
    seen = {"turns": per_turn}
    found = {
        "graded-count": any(e["graded_counts"] for e in per_turn.values()),
        "citation": any(e["citations"] for e in per_turn.values()),
        "narration": any(e["narrated"] for e in per_turn.values()),
    }
    return {
        case: PASS if found[case] else Verdict(False, _NO_EVIDENCE[case].format(n=len(asked)), seen)
        for case in EVIDENCE_CASES
    }


EVIDENCE_CASES = ("graded-count", "citation", "narration")
_NO_EVIDENCE = {
    "graded-count": "no answer to the {n} questions carried a graded count "
    "(references.counts graded EXACT, LOWER_BOUND or SHOWN): silence is not an answer",
    "citation": "no answer to the {n} questions carried a citation (references.citations): "
    "silence is not an answer",
    "narration": "no answer to the {n} questions said anything (every done.answer and delta "
    "was empty): silence is not an answer",
}


def _evidence_of(run: TurnRun) -> dict[str, Any]:
    counts = read_counts(run.frames)
    citations = [
        c
        for refs in frame_data(run.frames, "references")
        for c in refs.get("citations") or []
        if isinstance(c, dict)
    ]
    return {
        "graded_counts": [c.grade for c in counts if c.grade != "UNKNOWN"],
        "all_counts": len(counts),
        "citations": len(citations),
        "narrated": bool((prose_of(run.frames) or final_answer(run.frames)).strip()),
        "terminal": next((f.event for f in run.frames if f.event in ("done", "error")), None),
        "error": run.streamed.error,
    }


def _any_turn_id(runs: list[TurnRun]) -> str | None:
    return next((r.turn_id for r in runs if r.streamed.ok and r.turn_id), None)


BlackBoxCheck = Callable[[Wire, Credentials, list[TurnRun]], dict[str, Outcome]]
BLACK_BOX_CHECKS: dict[str, BlackBoxCheck] = {
    "auth.no-token": auth_no_token,
    "auth.alg-none": auth_alg_none,
    "auth.hs256-public-key": auth_hs256,
    "auth.other-user": auth_other_user,
    "input.non-strict-json": input_non_strict,
    "input.hostile-json": input_hostile,
    "input.oversized": input_oversized,
    "input.bad-after": input_bad_after,
    "answers.evidence": answers_evidence,
    "auth.expired": auth_expired,  # last: it may wait out the clock leeway
}
