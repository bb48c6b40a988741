"""The turn timeline's probe (``bench/timeline.py``), loaded into the stack's and the
relay's processes through ``PYTHONPATH`` when ``BEACON_TIMELINE_DIR`` is set, and
inert otherwise. Not part of Beacon: it wraps the libraries both sides share, never
Beacon's own code, so it sees each side the same way.

It stamps, on the clock every process shares (``time.perf_counter``, the machine's
monotonic clock): a request's arrival and every body write of its response (the
ASGI app's outermost ``send``), and every upstream request that names a turn
(``X-Beacon-Turn``) from its send to its response's close — an MCP request by its
JSON-RPC method (httpx2, the SDK's client), a model request (httpx). On ``SIGUSR2``
it writes what it stamped to ``$BEACON_TIMELINE_DIR/<pid>.json``.
"""

from __future__ import annotations

import json
import os
import signal
import time
from typing import Any

_DIR = os.environ.get("BEACON_TIMELINE_DIR")
_TURN = "x-beacon-turn"


def _install(directory: str) -> None:
    clock = time.perf_counter
    events: list[list[Any]] = []

    def dump(*_: object) -> None:
        path = os.path.join(directory, f"{os.getpid()}.json")
        with open(path + ".part", "w") as out:
            json.dump(events, out)
        os.replace(path + ".part", path)

    signal.signal(signal.SIGUSR2, dump)

    try:
        import starlette.applications as starlette_apps
    except ImportError:
        pass
    else:
        served = starlette_apps.Starlette.__call__

        async def call(self: Any, scope: Any, receive: Any, send: Any) -> None:
            if scope.get("type") != "http" or scope.get("method") != "POST":
                return await served(self, scope, receive, send)
            arrived = clock()
            headers = {k.decode().lower(): v.decode() for k, v in scope.get("headers", [])}
            turn = [headers.get(_TURN)]

            async def stamped(message: Any) -> None:
                if message["type"] == "http.response.start" and turn[0] is None:
                    found = {k.decode().lower(): v.decode() for k, v in message["headers"]}
                    turn[0] = found.get(_TURN)
                await send(message)
                if message["type"] == "http.response.body" and turn[0] is not None:
                    events.append(["out", turn[0], clock(), len(message.get("body", b""))])

            try:
                await served(self, scope, receive, stamped)
            finally:
                if turn[0] is not None:
                    events.append(["in", turn[0], arrived])

        starlette_apps.Starlette.__call__ = call  # type: ignore[method-assign]

    for name, kind in (("httpx", "llm"), ("httpx2", "mcp")):
        try:
            module: Any = __import__(name)
        except ImportError:
            continue
        _wrap_client(module, kind, events, clock)


def _wrap_client(module: Any, kind: str, events: list[list[Any]], clock: Any) -> None:
    sending = module.AsyncClient.send
    closing = module.Response.aclose

    async def send(self: Any, request: Any, *args: Any, **kwargs: Any) -> Any:
        turn = request.headers.get(_TURN)
        began = clock()
        response = await sending(self, request, *args, **kwargs)
        if turn is not None:
            what = "completion" if kind == "llm" else _method(request)
            response._beacon_timeline = ("op", turn, f"{kind}:{what}", began)
            if response.is_closed:
                events.append([*response._beacon_timeline, clock()])
                response._beacon_timeline = None
        return response

    async def aclose(self: Any) -> None:
        await closing(self)
        stamp = getattr(self, "_beacon_timeline", None)
        if stamp is not None:
            events.append([*stamp, clock()])
            self._beacon_timeline = None

    module.AsyncClient.send = send
    module.Response.aclose = aclose


def _method(request: Any) -> str:
    if request.method != "POST":
        return str(request.method).lower()  # the session's GET stream, its closing DELETE
    try:
        method: object = json.loads(request.content).get("method", "?")
    except (ValueError, AttributeError):
        return "?"
    return str(method)


if _DIR:
    _install(_DIR)
