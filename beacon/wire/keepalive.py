"""How long Beacon's clients keep an idle connection to an upstream.

uvicorn and Node close a connection idle for 5 s; httpx keeps one for 5 s too.
Equal timers race: a request written as the server's timer fires meets a closed
connection and fails before any response. Dropping our side first leaves only
servers with shorter timers to race, and the model client resends a request that
lost (``beacon.llm.client``); a tool call is never resent, so for the MCP
upstream this margin is the whole defence.
"""

from __future__ import annotations

IDLE_CONNECTION_S = 4.0
