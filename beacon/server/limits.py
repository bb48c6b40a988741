"""Connection limits at the HTTP protocol, before any application code runs.

uvicorn's h11 protocol (0.54) arms no timer until a first response is sent, so a
connection that never finishes its request head is held for ever; its
``limit_concurrency`` answers 503 only once a head is complete, so slow heads are
never shed; and h11 caps a head only while it is incomplete, so a complete head
over the cap in one read was served. ``LimitedH11Protocol`` (``http=`` in
``beacon serve``) adds, per process:

- a cap on open connections: one past it is answered 503 with ``Retry-After`` at
  once, half-closed, and dropped after a short linger (or at once when too many
  are already lingering), so the fds of a flood are returned, not held;
- a deadline for each request head, from the connection's open or the first byte
  of the next head on a kept-alive connection: past it, a 408 and the close;
- the header cap on every complete head, however it arrived: a 400
  ``head_too_large`` like h11's own refusal of an incomplete one.

After a burst of connections the process hands freed heap back to the system
(``malloc_trim``): freed, it stays in glibc's heap. 5000 heads of 31 KB left a stock
uvicorn at 227 MiB after all had closed (90 before); with the cap and no trim,
130 MiB; with the trim, back to ~100 (bench/README.md).
"""

from __future__ import annotations

import asyncio
import ctypes
import ctypes.util
import json
import resource
from dataclasses import dataclass
from functools import cache
from typing import Any, ClassVar

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from beacon.server.settings import Settings, SettingsError

DEFAULT_MAX_CONNECTIONS = 1000
# fds the process keeps for itself: the listening socket, the store, logs, threads.
FD_RESERVE = 64
# An admitted connection may hold a turn's upstream sockets too (model and MCP).
FDS_PER_CONNECTION = 3
# A refused connection stays half-closed this long, its input read and dropped:
# closed with unread input it is reset, and the client may lose the answer with it.
LINGER_S = 1.0
# A trim after a burst: when the open connections fall to a quarter of their peak
# and the peak was at least this many (a trim walks the heap: not after every close).
TRIM_AFTER_PEAK = 64

SERVICE_UNAVAILABLE = (
    b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\n"
    b"retry-after: 1\r\nconnection: close\r\ncontent-length: %d\r\n\r\n%s"
)
REQUEST_TIMEOUT = (
    b"HTTP/1.1 408 Request Timeout\r\ncontent-type: application/json\r\n"
    b"connection: close\r\ncontent-length: %d\r\n\r\n%s"
)


@dataclass(frozen=True, slots=True)
class ConnectionLimits:
    max_connections: int
    head_timeout_s: float
    max_header_bytes: int


def fd_limit() -> int:
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def connection_cap(requested: int | None, fds: int) -> int:
    """The connections one process may hold open: ``requested`` (default 1000),
    within what ``fds`` file descriptors can serve; more than that is refused."""
    bound = max(1, (fds - FD_RESERVE) // FDS_PER_CONNECTION)
    if requested is None:
        return min(DEFAULT_MAX_CONNECTIONS, bound)
    if requested > bound:
        raise SettingsError(
            f"BEACON_MAX_CONNECTIONS={requested} is more than this process can serve with "
            f"{fds} file descriptors (at most {bound}: {FDS_PER_CONNECTION} per connection, "
            f"{FD_RESERVE} kept back); lower it or raise `ulimit -n`"
        )
    return requested


def connection_limits(settings: Settings, fds: int | None = None) -> ConnectionLimits:
    return ConnectionLimits(
        max_connections=connection_cap(
            settings.max_connections, fd_limit() if fds is None else fds
        ),
        head_timeout_s=settings.head_timeout_s,
        max_header_bytes=settings.max_header_bytes,
    )


@cache
def process_limits() -> ConnectionLimits:
    """Read once per process: each of ``--workers N`` builds its own protocol class
    from the same environment ``beacon serve`` checked before it started them."""
    from beacon.server.settings import settings_from_env

    return connection_limits(settings_from_env())


def head_size(event: h11.Request) -> int:
    """The request head's bytes as sent, less any blanks h11 trimmed around values."""
    line = len(event.method) + len(event.target) + len(b"  HTTP/1.1\r\n")
    fields = sum(len(name) + len(value) + len(b": \r\n") for name, value in event.headers)
    return line + fields + len(b"\r\n")


def _answer(template: bytes, code: str, message: str) -> bytes:
    body = json.dumps({"error": {"code": code, "message": message}}).encode()
    return template % (len(body), body)


class _CappedHead(h11.Connection):
    """h11 with the header cap on a complete head too; keeps the last refusal so
    the answer can name it."""

    def __init__(self, max_header_bytes: int) -> None:
        super().__init__(h11.SERVER, max_incomplete_event_size=max_header_bytes)
        self.max_header_bytes = max_header_bytes
        self.refusal: h11.RemoteProtocolError | None = None

    def next_event(self) -> Any:
        try:
            event = super().next_event()
            if isinstance(event, h11.Request) and head_size(event) > self.max_header_bytes:
                raise h11.RemoteProtocolError("request head over its cap", error_status_hint=431)
        except h11.RemoteProtocolError as exc:
            self.refusal = exc
            raise
        return event


class _Trim:
    """``malloc_trim(0)`` once the open connections fall well below a peak."""

    def __init__(self) -> None:
        path = ctypes.util.find_library("c")
        self.libc = ctypes.CDLL(path) if path else None
        self.peak = 0

    def opened(self, open_now: int) -> None:
        self.peak = max(self.peak, open_now)

    def closed(self, open_now: int) -> None:
        if self.peak >= TRIM_AFTER_PEAK and open_now <= self.peak // 4:
            self.peak = open_now
            trim = getattr(self.libc, "malloc_trim", None)
            if trim is not None:  # glibc only
                trim(0)


_TRIM = _Trim()


class LimitedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with a connection cap, a head deadline and a head cap."""

    # Tests in one process may set limits on a subclass; else read from the environment.
    limits: ClassVar[ConnectionLimits | None] = None
    # The refused connections of this process still lingering, bounded by the cap.
    _lingering: ClassVar[set[LimitedH11Protocol]] = set()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.caps = type(self).limits or process_limits()
        self.conn = _CappedHead(self.caps.max_header_bytes)
        self.head_timer: asyncio.TimerHandle | None = None
        self.shed = False  # refused at once: never counted as open
        self.draining = False  # answered for the last time: input is dropped

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if len(self.connections) > self.caps.max_connections:
            self._shed()
            return
        _TRIM.opened(len(self.connections))
        self._arm_head_timer()

    def _shed(self) -> None:
        self.connections.discard(self)  # the cap counts the connections being served
        self.shed = True
        message = "the server is at its connection limit; retry shortly"
        self._close_after(_answer(SERVICE_UNAVAILABLE, "over_capacity", message))

    def _close_after(self, answer: bytes) -> None:
        """Write a last answer, then close once the client has (or after ``LINGER_S``)."""
        self._cancel_head_timer()
        self.draining = True
        self.transport.write(answer)
        if len(self._lingering) >= self.caps.max_connections or not self.transport.can_write_eof():
            self.transport.close()  # a flood: no lingering is worth its fd
            return
        self._lingering.add(self)
        self.transport.write_eof()
        self.head_timer = self.loop.call_later(LINGER_S, self.transport.close)

    def data_received(self, data: bytes) -> None:
        if self.draining:
            return
        if self.head_timer is None and self.conn.their_state is h11.IDLE:
            self._arm_head_timer()
        super().data_received(data)
        if self.conn.their_state is not h11.IDLE:
            self._cancel_head_timer()

    def eof_received(self) -> None:
        if self.draining:
            self.transport.close()

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_head_timer()
        self._lingering.discard(self)
        super().connection_lost(exc)
        if not self.shed:
            _TRIM.closed(len(self.connections))

    def _arm_head_timer(self) -> None:
        self.head_timer = self.loop.call_later(self.caps.head_timeout_s, self._head_timed_out)

    def _cancel_head_timer(self) -> None:
        if self.head_timer is not None:
            self.head_timer.cancel()
            self.head_timer = None

    def _head_timed_out(self) -> None:
        self.head_timer = None
        if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
            message = "the request head did not arrive in time"
            self._close_after(_answer(REQUEST_TIMEOUT, "head_timeout", message))

    def send_400_response(self, msg: str) -> None:
        # uvicorn's answer to a head h11 refused, as a coded error: 400 like before,
        # ``head_too_large`` when the head was over its cap (h11's hint is 431).
        refusal = self.conn.refusal if isinstance(self.conn, _CappedHead) else None
        too_large = refusal is not None and refusal.error_status_hint == 431
        code = "head_too_large" if too_large else "request_invalid"
        message = "the request head is over its cap" if too_large else "invalid HTTP request"
        body = json.dumps({"error": {"code": code, "message": message}}).encode()
        headers = [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
            (b"connection", b"close"),
        ]
        answer = b"".join(
            self.conn.send(event) or b""
            for event in (
                h11.Response(status_code=400, headers=headers, reason=b"Bad Request"),
                h11.Data(data=body),
                h11.EndOfMessage(),
            )
        )
        self._close_after(answer)
