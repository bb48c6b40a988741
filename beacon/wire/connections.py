"""How Beacon's clients connect to an upstream: one TLS context, and how long an
idle connection is kept.

The TLS context is built once per process (``client_tls``): building one loads the
CA bundle, 20-70 ms of CPU here, and httpx builds a fresh one for every client made
without one — the MCP session's client every turn, the JWKS fetch every refresh,
each on the event loop, where every turn of the process waits for it.

uvicorn and Node close a connection idle for 5 s; httpx keeps one for 5 s too.
Equal timers race: a request written as the server's timer fires meets a closed
connection and fails before any response. Dropping our side first leaves only
servers with shorter timers to race, and the model client resends a request that
lost (``beacon.llm.client``); the MCP client resends only what a second copy cannot
change (``beacon.upstream.reuse``), and never a tool call: for a tool call this margin
is the whole defence.
"""

from __future__ import annotations

import ssl
from functools import cache

IDLE_CONNECTION_S = 4.0

# A server process's own pools, shared by all its turns (the model's, the MCP
# upstream's): every turn in flight may hold a stream open, and a request waiting for
# a connection from a full pool would fail as the upstream's fault, not Beacon's.
SHARED_MAX_CONNECTIONS = 1000
SHARED_MAX_IDLE = 100


@cache
def client_tls() -> ssl.SSLContext:
    """The process's one verifying TLS context (the system's CA bundle)."""
    return ssl.create_default_context()
