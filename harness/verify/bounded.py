"""Reading what a target sends, within bounds the target cannot move.

A target decides how much it sends and how slowly, so every read verify makes
has three bounds of its own: a wall-clock deadline from the request's start
(heartbeats and comments are bytes, and move nothing), a longest line, and at
most so many frames and bytes a stream. ``iter_lines`` would buffer a line
that never ends (13 GB in 90 s, measured), so lines are split here from
bounded chunks; and a read that blocks on a silent socket is cut by a
watchdog that shuts the socket down at the deadline (a per-read timeout is
reset by every trickled byte).
"""

from __future__ import annotations

import re
import socket
import threading
import time
from collections.abc import Iterable, Iterator, Mapping
from contextlib import suppress
from types import TracebackType
from typing import Any

MIB = 1024 * 1024
MAX_LINE_BYTES = MIB  # Beacon's longest line is one references frame, a few KiB
MAX_FRAMES = 10_000  # a Beacon turn publishes tens of frames
MAX_STREAM_BYTES = 16 * MIB  # a Beacon turn is a few KiB; lines x frames alone bound nothing
_EOL = re.compile(rb"\r\n|\r|\n")


class Overrun(Exception):
    """A stream broke one of verify's bounds; its text is the one-line finding."""


def late(seconds: float) -> Overrun:
    return Overrun(f"the stream did not end within {seconds:g} s (the turn deadline)")


def line_too_long(limit: int = MAX_LINE_BYTES) -> Overrun:
    return Overrun(
        f"a line of the stream passed {limit:,} bytes without ending; reading stopped "
        "at the line cap"
    )


def too_many_frames(limit: int = MAX_FRAMES) -> Overrun:
    return Overrun(f"the stream passed {limit:,} frames; reading stopped at the frame cap")


def too_many_bytes(limit: int = MAX_STREAM_BYTES) -> Overrun:
    return Overrun(f"the stream passed {limit:,} bytes; reading stopped at the stream cap")


class Watchdog:
    """The wall-clock bound of one request: started before it is sent, it shuts the
    connection's socket down at the deadline, which ends a read blocked on it.

    The socket is learnt from httpcore's ``trace`` extension as the connection is made,
    so the request must use a connection of its own (a fresh client).
    """

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.deadline = time.monotonic() + seconds
        self.fired = False
        self._stream: Any = None
        self._lock = threading.Lock()
        self._timer = threading.Timer(seconds, self._fire)
        self._timer.daemon = True

    def __enter__(self) -> Watchdog:
        self._timer.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        with self._lock:
            self._timer.cancel()
            self._stream = None  # a late timer cuts nothing

    def trace(self, event: str, info: Mapping[str, Any]) -> None:
        """httpcore's trace callback: remember the connection's stream (TCP, then TLS)."""
        if event in ("connection.connect_tcp.complete", "connection.start_tls.complete"):
            with self._lock:
                self._stream = info.get("return_value")
                if self.fired:
                    self._cut()

    def check(self) -> None:
        if time.monotonic() > self.deadline:
            self.fired = True
            raise late(self.seconds)

    def _fire(self) -> None:
        with self._lock:
            self.fired = True
            self._cut()

    def _cut(self) -> None:
        sock = None if self._stream is None else self._stream.get_extra_info("socket")
        if isinstance(sock, socket.socket):
            # The plain socket's shutdown, also under TLS: SSLSocket.shutdown would drop
            # its SSL object under the reading thread.
            with suppress(OSError):
                socket.socket.shutdown(sock, socket.SHUT_RDWR)


def lines(
    chunks: Iterable[bytes],
    watchdog: Watchdog,
    max_line: int = MAX_LINE_BYTES,
    max_bytes: int = MAX_STREAM_BYTES,
) -> Iterator[str]:
    """Bounded chunks → lines without their terminators (CRLF, CR or LF, as SSE allows).

    Raises ``Overrun`` past the deadline, a line longer than ``max_line`` (complete or
    not: the unfinished tail is never kept beyond it) or ``max_bytes`` in all.
    """
    pending = b""
    read = 0
    for chunk in chunks:
        watchdog.check()
        read += len(chunk)
        if read > max_bytes:
            raise too_many_bytes(max_bytes)
        pending += chunk
        start = 0
        for end in _EOL.finditer(pending):
            if end.group() == b"\r" and end.end() == len(pending):
                break  # the CR may be the first half of a CRLF still on its way
            if end.start() - start > max_line:
                raise line_too_long(max_line)
            yield pending[start : end.start()].decode("utf-8")
            start = end.end()
        pending = pending[start:]
        if len(pending) > max_line:
            raise line_too_long(max_line)
    if pending:
        yield pending.decode("utf-8")
