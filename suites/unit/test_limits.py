"""The connection cap a process may hold and the size of a request head
(beacon/server/limits.py); the protocol itself is tested over real sockets in
suites/e2e/test_connection_limits.py."""

from __future__ import annotations

import h11
import pytest

from beacon.server.limits import connection_cap, head_size
from beacon.server.settings import SettingsError


@pytest.mark.parametrize(
    ("requested", "fds", "cap"),
    [
        pytest.param(None, 20_000, 1000, id="default-under-a-large-fd-limit"),
        pytest.param(None, 1024, 320, id="default-bounded-by-1024-fds"),
        pytest.param(None, 10, 1, id="default-never-zero"),
        pytest.param(20, 1024, 20, id="requested-within-the-fds"),
        pytest.param(6645, 20_000, 6645, id="requested-at-the-fd-bound"),
    ],
)
def test_the_cap_is_the_requested_or_default_within_the_fd_limit(
    requested: int | None, fds: int, cap: int
) -> None:
    assert connection_cap(requested, fds) == cap


def test_a_cap_the_fd_limit_cannot_serve_is_refused_naming_both() -> None:
    with pytest.raises(SettingsError, match=r"BEACON_MAX_CONNECTIONS=5000 .* 1024 file"):
        connection_cap(5000, 1024)


@pytest.mark.parametrize(
    "head",
    [
        pytest.param(b"GET / HTTP/1.1\r\nHost: b\r\n\r\n", id="minimal"),
        pytest.param(
            b"POST /v1/turns?x=1 HTTP/1.1\r\nHost: beacon\r\nX-Big: " + b"a" * 70_000
            + b"\r\nContent-Length: 0\r\n\r\n",
            id="70k-header",
        ),
    ],
)  # fmt: skip
def test_the_head_size_is_the_bytes_the_client_sent(head: bytes) -> None:
    conn = h11.Connection(h11.SERVER, max_incomplete_event_size=1 << 20)
    conn.receive_data(head)
    event = conn.next_event()
    assert isinstance(event, h11.Request)
    assert head_size(event) == len(head)
