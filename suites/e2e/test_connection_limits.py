"""Connection limits over real sockets (issue 27): one `beacon serve` started here,
with a cap of 20 connections, a 2 s head deadline, a 1 s keep-alive and the
smallest header cap, so that slow heads, heads over the cap and idle
connections are refused or closed by the server instead of holding its fds.

No stubs are needed: every request here is answered by the protocol or by
``/healthz``, so the upstream URLs point at a closed loopback port.
"""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from beacon.store.crypto import new_key_slot
from harness.chat_process import server_process
from harness.stack import beacon_executable

pytestmark = pytest.mark.e2e

CAP = 20
HEAD_TIMEOUT_S = 2
KEEP_ALIVE_S = 1
HEADER_CAP = 16384  # the least BEACON_MAX_HEADER_BYTES takes
WAIT_S = 8.0  # the most any answer here may take: well past every timeout above
HALF_HEAD = b"GET /healthz HTTP/1.1\r\nHost: beacon\r\n"
HEALTHZ = HALF_HEAD + b"\r\n"


@pytest.fixture(scope="module")
def address(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, int]]:
    data: Path = tmp_path_factory.mktemp("limits")
    closed = "http://127.0.0.1:9"  # discard port: nothing here calls upstream
    env = {
        "PATH": "/usr/bin:/bin",
        "BEACON_MCP_URL": f"{closed}/mcp",
        "BEACON_LLM_BASE_URL": f"{closed}/v1",
        "BEACON_JWKS": f"{closed}/.well-known/jwks.json",
        "BEACON_DB": str(data / "beacon.sqlite3"),
        "BEACON_KEYS": new_key_slot("t1"),
        "BEACON_MAX_CONNECTIONS": str(CAP),
        "BEACON_HEAD_TIMEOUT_S": str(HEAD_TIMEOUT_S),
        "BEACON_KEEP_ALIVE_S": str(KEEP_ALIVE_S),
        "BEACON_MAX_HEADER_BYTES": str(HEADER_CAP),
    }
    with server_process([beacon_executable(), "serve"], env) as (url, _):
        host, port = url.removeprefix("http://").rsplit(":", 1)
        yield host, int(port)


def connect(address: tuple[str, int], sent: bytes = b"") -> socket.socket:
    sock = socket.create_connection(address, timeout=WAIT_S)
    if sent:
        sock.sendall(sent)
    return sock


def read_until_closed(sock: socket.socket) -> bytes:
    """Everything the server sends until it closes (bounded by the socket's timeout)."""
    answer = b""
    while chunk := sock.recv(65536):
        answer += chunk
    return answer


def ask(address: tuple[str, int], request: bytes) -> bytes:
    with connect(address, request) as sock:
        sock.shutdown(socket.SHUT_WR)  # nothing more comes: the server answers and closes
        return read_until_closed(sock)


def served(address: tuple[str, int]) -> None:
    """Wait (bounded) until a new connection is served: the connections of an
    earlier test are gone from the count."""
    deadline = time.monotonic() + WAIT_S
    while not ask(address, HEALTHZ).startswith(b"HTTP/1.1 200 "):
        assert time.monotonic() < deadline, "the server never served a new connection"
        time.sleep(0.05)


def test_a_connection_past_the_cap_is_answered_503_with_retry_after_at_once(
    address: tuple[str, int],
) -> None:
    served(address)
    slow = [connect(address, HALF_HEAD) for _ in range(CAP)]
    try:
        started = time.monotonic()
        answer = ask(address, HEALTHZ)
        elapsed = time.monotonic() - started
    finally:
        for sock in slow:
            sock.close()
    head = answer.split(b"\r\n\r\n", 1)[0].lower()
    assert head.startswith(b"http/1.1 503 ") and b"retry-after: 1" in head
    assert b'"over_capacity"' in answer
    assert elapsed < HEAD_TIMEOUT_S  # answered, not kept waiting for a slot
    served(address)  # and served again once the slow heads are gone


def test_a_request_head_not_finished_in_time_is_closed_by_the_server(
    address: tuple[str, int],
) -> None:
    served(address)
    # Half of them send nothing at all, half an unfinished head: all hold the cap.
    silent = [connect(address) for _ in range(CAP // 2)]
    slow = [connect(address, HALF_HEAD) for _ in range(CAP - CAP // 2)]
    started = time.monotonic()
    try:
        answers = [read_until_closed(sock) for sock in silent + slow]
        elapsed = time.monotonic() - started
    finally:
        for sock in silent + slow:
            sock.close()
    assert all(a.startswith(b"HTTP/1.1 408 ") and b'"head_timeout"' in a for a in answers)
    assert elapsed < WAIT_S
    assert ask(address, HEALTHZ).startswith(b"HTTP/1.1 200 ")


def test_a_head_over_the_cap_in_one_write_is_refused_not_served(
    address: tuple[str, int],
) -> None:
    served(address)
    big = HALF_HEAD + b"X-Big: " + b"a" * (HEADER_CAP + 4096) + b"\r\n\r\n"
    answer = ask(address, big)
    assert answer.startswith(b"HTTP/1.1 400 ") and b'"head_too_large"' in answer
    assert len(answer) < 1024


def test_a_head_over_the_cap_in_pieces_is_refused_before_it_ends(
    address: tuple[str, int],
) -> None:
    served(address)
    with connect(address, HALF_HEAD + b"X-Big: ") as sock:
        for _ in range(8):  # 8 × 4 KiB of one header value, never finished
            sock.sendall(b"a" * 4096)
        answer = read_until_closed(sock)
    assert answer.startswith(b"HTTP/1.1 400 ") and b'"head_too_large"' in answer


def test_an_idle_keep_alive_connection_is_closed_after_its_timeout(
    address: tuple[str, int],
) -> None:
    served(address)
    with connect(address, HEALTHZ) as sock:
        answer = b""
        while b'"ok":true' not in answer:
            answer += sock.recv(65536)
        answered = time.monotonic()
        sock.settimeout(KEEP_ALIVE_S + 2.5)  # uvicorn's own 5 s would not close it in time
        rest = read_until_closed(sock)
    assert answer.startswith(b"HTTP/1.1 200 ") and b"connection: close" not in answer.lower()
    assert rest == b"" and time.monotonic() - answered < KEEP_ALIVE_S + 2.5
