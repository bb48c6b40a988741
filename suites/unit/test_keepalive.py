"""Beacon's clients drop an idle upstream connection before the servers they
talk to most often close it: equal idle timers race, and a request written as the
server's timer fires fails before any response."""

from __future__ import annotations

import uvicorn

from beacon.wire.connections import IDLE_CONNECTION_S

# Node's http.Server keepAliveTimeout default (5,000 ms), as its documentation states.
NODE_KEEP_ALIVE_S = 5.0


def _uvicorn_default_keep_alive() -> float:
    async def app(scope: object, receive: object, send: object) -> None:
        return None

    return float(uvicorn.Config(app).timeout_keep_alive)


def test_an_idle_connection_is_dropped_before_uvicorn_or_node_closes_it() -> None:
    upstream_timers = (_uvicorn_default_keep_alive(), NODE_KEEP_ALIVE_S)
    # A margin a loaded machine's scheduling cannot eat (the race window is its delay).
    assert all(timer - IDLE_CONNECTION_S >= 0.5 for timer in upstream_timers), upstream_timers
    assert IDLE_CONNECTION_S >= 1.0  # still long enough to reuse within a turn
