"""The bench's floor answers as a turn does — one SSE frame — and with beacon serve's limits."""

from __future__ import annotations

import httpx

from bench.common import post_sse
from bench.floor import FloorProtocol, floor_app, lines


async def test_the_floor_streams_one_frame_for_a_turn_with_a_bearer() -> None:
    transport = httpx.ASGITransport(app=floor_app())
    async with httpx.AsyncClient(transport=transport) as http:
        run = await post_sse(
            http, "http://floor/v1/turns", "t", json_body={"message": "how many photos?"}
        )
    assert run.failure is None and run.status == 200
    assert [(e.id, e.event) for e in run.events] == [("1", "done")]
    assert run.events[0].json() == {"seq": 1, "message_bytes": 16}


async def test_the_floor_refuses_a_turn_without_a_bearer() -> None:
    transport = httpx.ASGITransport(app=floor_app())
    async with httpx.AsyncClient(transport=transport) as http:
        response = await http.post("http://floor/v1/turns", json={"message": "x"})
    assert response.status_code == 401


def test_the_floor_runs_with_the_limits_beacon_serve_starts_with() -> None:
    # README "Limits": a 32 KiB request head, 10 s to send it.
    assert FloorProtocol.limits is not None
    assert FloorProtocol.limits.max_header_bytes == 32 * 1024
    assert FloorProtocol.limits.head_timeout_s == 10.0


def test_the_floor_line_names_its_processes_and_percentiles() -> None:
    figures = {"workers": 2, "ttff_p50_s": 0.1234, "ttff_p95_s": 0.5, "failed": 0}
    (line,) = lines(figures)
    assert "2 processes" in line and "p50 123.4 ms" in line and "p95 500.0 ms" in line
