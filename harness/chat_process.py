"""A chat server alone (``beacon serve``) beside a running stack's stubs.

For tests that need the chat server configured differently from the stack's
own: a database that fails, an upstream that is down, a short deadline.
"""

from __future__ import annotations

import subprocess
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from beacon.cli.up import free_port, wait_healthy
from beacon.store.crypto import new_key_slot, parse_keys
from beacon.store.sqlite import SqliteStore
from harness.stack import Stack, beacon_executable


def chat_env(stack: Stack, data_dir: Path, **overrides: str) -> dict[str, str]:
    env = {
        "PATH": "/usr/bin:/bin",
        "BEACON_MCP_URL": stack.mcp_url,
        "BEACON_LLM_BASE_URL": stack.llm_url,
        "BEACON_JWKS": f"{stack.mcp_origin}/.well-known/jwks.json",
        "BEACON_DB": str(data_dir / "beacon.sqlite3"),
        "BEACON_KEYS": new_key_slot("t1"),
        # A test stack: turns may pick a stub scenario; override with "deny" to test the switch.
        "BEACON_SCENARIOS": "allow",
    }
    env.update(overrides)
    return env


@contextmanager
def server_process(
    command: list[str], env: dict[str, str] | None = None
) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """Start ``command`` plus ``--port P`` on a free loopback port; yields its origin
    and process once ``/healthz`` answers (a test may kill it), and stops it on exit."""
    port = free_port()
    proc = subprocess.Popen([*command, "--port", str(port)], env=env)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_healthy(f"{url}/healthz", proc, threading.Event())
        yield url, proc
    finally:
        if proc.poll() is None:
            proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=5)


@contextmanager
def running_server(command: list[str], env: dict[str, str] | None = None) -> Iterator[str]:
    """Like ``server_process``, yielding the origin only."""
    with server_process(command, env) as (url, _):
        yield url


@contextmanager
def chat_process(env: dict[str, str], *args: str) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """``beacon serve [ARGS]``: yields the chat origin and its process."""
    with server_process([beacon_executable(), "serve", *args], env) as running:
        yield running


@contextmanager
def running_chat(env: dict[str, str]) -> Iterator[str]:
    """Yields the chat origin; stops the process on exit."""
    with chat_process(env) as (url, _):
        yield url


@contextmanager
def chat_with_open_store(
    stack: Stack, data_dir: Path, key_id: str, **overrides: str
) -> Iterator[tuple[str, SqliteStore]]:
    """A chat server whose database and keys the test holds, so it can read what the
    server stored (audit rows, answers) beside what it sent over the wire."""
    keys = new_key_slot(key_id)
    with running_chat(chat_env(stack, data_dir, BEACON_KEYS=keys, **overrides)) as url:
        yield url, SqliteStore(data_dir / "beacon.sqlite3", parse_keys(keys))
