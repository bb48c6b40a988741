"""A port chosen for a child server is one no outgoing connection can take first: it
lies below the kernel's ephemeral range (where bind(0) draws from, and where a
client socket of any process may land before the child binds), and it is free."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from beacon.cli import up

RANGE = Path("/proc/sys/net/ipv4/ip_local_port_range")


@pytest.mark.skipif(not RANGE.exists(), reason="no ephemeral range to stay out of here")
def test_a_chosen_port_is_free_and_below_the_ephemeral_range() -> None:
    low = int(RANGE.read_text().split()[0])
    for _ in range(20):
        port = up.free_port()
        assert 1024 <= port < low
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
            sock.bind(("127.0.0.1", port))  # free: it binds


def test_without_a_known_range_a_port_is_still_found(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(up, "_EPHEMERAL_RANGE", tmp_path / "absent")
    port = up.free_port()
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", port))
