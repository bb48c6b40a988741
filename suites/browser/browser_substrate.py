"""The substrate contract: what the browser specs stand on, proved over real
HTTP against the installed build before any spec runs.

A verdict, not an exception: ``check_substrate`` returns every failed clause,
so the skip reason of a spec says exactly what is broken.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import httpx
from pydantic import ValidationError

from beacon.wire import frames as wire
from harness.stack import Stack

EXACT_LIST = "List open safety findings on level 3 of Harbor Tower"
PHOTOS = "Photos of missing hard hats in Harbor Tower"
MODELS = wire.FRAME_MODELS
# Every frame field a spec asserts on through the DOM (citation cards, the
# count line, notices and their options, the session the panel keeps).
DOM_FIELDS: dict[str, tuple[str, ...]] = {
    "start": ("turn_id", "session_id", "mode"),
    "citation": ("id", "title", "deep_link", "target", "thumbnail", "level", "date", "kind"),
    "count": ("source", "slot", "displayed", "total", "has_more", "grade", "more"),
    "notice": ("kind", "text", "options"),
    "done": ("answer",),
}
STATIC = {
    "/panel/": "text/html",
    "/panel/panel.js": "javascript",
    "/panel/host.js": "javascript",
    "/panel/vocabulary.js": "javascript",
    "/hosts/viewer/": "text/html",
    "/hosts/viewer/viewer.js": "javascript",
    "/hosts/viewer/link.js": "javascript",
    "/hosts/console/": "text/html",
    "/hosts/console/console.js": "javascript",
}


@dataclass(frozen=True)
class SubstrateVerdict:
    failures: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.failures

    @property
    def why(self) -> str:
        return "; ".join(self.failures) or "green"

    def require(self, condition: bool, clause: str) -> None:
        if not condition:
            self.failures.append(clause)


@dataclass(frozen=True)
class Turn:
    status: int
    frames: list[tuple[str, dict[str, Any]]]
    raw: bytes

    def of(self, kind: str) -> list[dict[str, Any]]:
        return [data for event, data in self.frames if event == kind]


def parse_sse(raw: bytes) -> list[tuple[str, dict[str, Any]]]:
    frames = []
    for block in raw.decode().replace("\r\n", "\n").split("\n\n"):
        event, data = "message", []
        for line in block.split("\n"):
            if line.startswith("event:"):
                event = line[6:].strip()
            elif line.startswith("data:"):
                data.append(line[5:].strip())
        if data:
            frames.append((event, json.loads("\n".join(data))))
    return frames


def run_turn(
    stack: Stack,
    token: str | None,
    message: str,
    *,
    scenario: str | None = None,
    mode: str = "single",
) -> Turn:
    headers = {"Accept": "text/event-stream"}
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    if scenario is not None:
        headers["X-Beacon-Scenario"] = scenario
    response = httpx.post(
        f"{stack.chat_url}/v1/turns",
        json={"mode": mode, "message": message, "locale": "en"},
        headers=headers,
        timeout=60.0,
    )
    ok = response.status_code == 200
    return Turn(response.status_code, parse_sse(response.content) if ok else [], response.content)


def _valid(turn: Turn, verdict: SubstrateVerdict, name: str) -> None:
    types = [event for event, _ in turn.frames]
    verdict.require(turn.status == 200, f"{name}: POST /v1/turns answered {turn.status}")
    verdict.require(types[:1] == ["start"], f"{name}: first frame is {types[:1]}, not start")
    terminals = [t for t in types if t in wire.TERMINAL_FRAMES]
    verdict.require(
        len(terminals) == 1 and types[-1:] == terminals, f"{name}: terminals {terminals}"
    )
    for event, data in turn.frames:
        try:
            MODELS[event].model_validate(data)
        except (KeyError, ValidationError) as exc:
            verdict.failures.append(f"{name}: {event} frame off the wire contract ({exc})")


def _fields(
    obj: dict[str, Any], names: tuple[str, ...], what: str, verdict: SubstrateVerdict
) -> None:
    missing = [n for n in names if n not in obj]
    verdict.require(not missing, f"{what} lacks {missing}")


def check_substrate(stack: Stack) -> SubstrateVerdict:
    verdict = SubstrateVerdict()
    with httpx.Client(base_url=stack.chat_url, timeout=15.0) as http:
        for path, kind in STATIC.items():
            served = http.get(path)
            verdict.require(
                served.status_code == 200 and kind in served.headers.get("content-type", ""),
                f"{path} not served as {kind} ({served.status_code})",
            )
    # Fail closed: no bearer, no stream, on the chat server and on the upstream.
    bare = run_turn(stack, None, EXACT_LIST)
    verdict.require(bare.status == 401, f"no bearer: chat answered {bare.status}, not 401")
    verdict.require(b'"auth_' in bare.raw, "no bearer: 401 body lacks an auth_ code")
    upstream = httpx.post(stack.mcp_url, json={}, timeout=10.0)
    verdict.require(upstream.status_code == 401, f"no bearer: MCP answered {upstream.status_code}")

    token = stack.token()
    listed = run_turn(stack, token, EXACT_LIST, scenario="default", mode="chat")
    _valid(listed, verdict, "default")
    for start in listed.of("start"):
        _fields(start, DOM_FIELDS["start"], "start", verdict)
    refs = listed.of("references")
    verdict.require(len(refs) == 1, f"default: {len(refs)} references frames")
    if refs:
        cards, counts = refs[0]["citations"], refs[0]["counts"]
        verdict.require(len(cards) > 0 and len(counts) > 0, "default: no cards or no counts")
        for card in cards[:1]:
            _fields(card, DOM_FIELDS["citation"], "citation", verdict)
            # Host-blind: the server names the record; each host builds its own URL.
            target = card.get("target") or {}
            verdict.require(
                str(card.get("deep_link", "")).startswith("beacon:")
                and (target.get("kind"), target.get("id")) == (card["kind"], card["id"]),
                f"citation {card['id']}: link {card.get('deep_link')} is not its target's name",
            )
        for count in counts:
            _fields(count, DOM_FIELDS["count"], "count entry", verdict)
    for done in listed.of("done"):
        _fields(done, DOM_FIELDS["done"], "done", verdict)
    # The replay a reattach reads is the live stream, byte for byte.
    if listed.of("start"):
        turn_id = listed.of("start")[0]["turn_id"]
        replay = httpx.get(
            f"{stack.chat_url}/v1/turns/{turn_id}/events",
            params={"after": 0},
            headers={"Authorization": f"Bearer {token}"},
            timeout=15.0,
        )
        verdict.require(
            replay.content == listed.raw, "reattach replay differs from the live stream"
        )

    photos = run_turn(stack, token, PHOTOS, scenario="default")
    _valid(photos, verdict, "photos")
    thumbs = [
        c["thumbnail"] for r in photos.of("references") for c in r["citations"] if c["thumbnail"]
    ]
    verdict.require(bool(thumbs), "photos: no thumbnails")
    if thumbs:
        image = httpx.get(thumbs[0], timeout=10.0)
        verdict.require(
            image.status_code == 200 and image.headers.get("content-type", "").startswith("image/"),
            f"thumbnail {thumbs[0]} → {image.status_code}",
        )

    # Each scenario a spec draws must produce its frames over this wire.
    expectations = {
        "legacy-upstream": lambda t: (
            [c["grade"] for r in t.of("references") for c in r["counts"]][:1] == ["UNKNOWN"]
        ),
        "inband-502": lambda t: "failure" in [n["kind"] for n in t.of("notice")],
        "zero-hits": lambda t: (
            [c["total"] for r in t.of("references") for c in r["counts"]][:1] == [0]
        ),
    }
    for scenario, holds in expectations.items():
        turn = run_turn(stack, token, PHOTOS, scenario=scenario)
        _valid(turn, verdict, scenario)
        verdict.require(holds(turn), f"{scenario}: its frames lack the shape the spec draws")
    denied = run_turn(stack, stack.token(sub="essentials-user", tiers=("essentials",)), PHOTOS)
    _valid(denied, verdict, "denied")
    notices = denied.of("notice")
    verdict.require(
        [n["kind"] for n in notices] == ["denied"],
        f"denied: notices {[n['kind'] for n in notices]}",
    )
    for notice in notices:
        _fields(notice, DOM_FIELDS["notice"], "notice", verdict)
    return verdict
