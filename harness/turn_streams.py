"""Turns over real HTTP for multi-process tests: a streamed turn read in a thread,
whole turns, reattaches, and the SSE frames of raw bytes."""

from __future__ import annotations

import threading

import httpx

from beacon.wire.sse import SseEvent, parse_sse

STALLED = "Photos of missing hard hats in Harbor Tower"
PANORAMAS = "List all panoramas in Harbor Tower"


def auth(token: str, scenario: str | None = None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} | (
        {"X-Beacon-Scenario": scenario} if scenario else {}
    )


def frames_of(raw: bytes) -> list[SseEvent]:
    """The whole SSE frames in ``raw`` (a trailing partial frame is left out)."""
    return list(parse_sse(raw.decode(errors="replace").split("\n")))


class StreamedTurn:
    """A turn posted to one process, read in a thread; ``seen`` fires once the
    client holds its ``references`` frame (the model stalls after it)."""

    def __init__(self, url: str, token: str, scenario: str | None = "model-stall") -> None:
        self.raw = b""
        self.turn_id = ""
        self.seen = threading.Event()
        self.finished = threading.Event()
        self._args = (url, token, scenario)
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        url, token, scenario = self._args
        try:
            with httpx.stream(
                "POST",
                f"{url}/v1/turns",
                json={"mode": "single", "message": STALLED},
                headers=auth(token, scenario),
                timeout=httpx.Timeout(60.0, connect=5.0),
            ) as response:
                for chunk in response.iter_bytes():
                    self.raw += chunk
                    frames = frames_of(self.raw)
                    if frames and not self.turn_id:
                        self.turn_id = frames[0].json()["turn_id"]
                    if any(f.event == "references" for f in frames):
                        self.seen.set()
        except httpx.HTTPError:
            pass  # the process was killed under it
        finally:
            self.seen.set()
            self.finished.set()

    def join(self) -> bytes:
        assert self.finished.wait(60), "the turn did not finish"
        return self.raw


def post(url: str, token: str, message: str, **fields: str) -> httpx.Response:
    """One whole turn (its stream read to the end)."""
    return httpx.post(
        f"{url}/v1/turns",
        json={"mode": "single", "message": message, **fields},
        headers=auth(token),
        timeout=120,
    )


def turn_id_of(reply: httpx.Response) -> str:
    return str(frames_of(reply.content)[0].json()["turn_id"])


def events(url: str, token: str, turn_id: str, after: int = 0) -> httpx.Response:
    return httpx.get(
        f"{url}/v1/turns/{turn_id}/events",
        params={"after": after},
        headers=auth(token),
        timeout=httpx.Timeout(60.0, connect=5.0),
    )


def whole_frames(raw: bytes) -> list[bytes]:
    """The complete SSE blocks of ``raw`` (a trailing partial one left out)."""
    blocks = raw.split(b"\n\n")[:-1]
    return [block + b"\n\n" for block in blocks]
