"""`beacon up`: stub MCP, stub LLM and chat server as child processes.

Prints `chat: URL`, `mcp: URL`, `llm: URL` and then `ready` (SPEC
§2.4; other tools parse these lines), and stops all three on Ctrl-C.
"""

from __future__ import annotations

import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path

import httpx

from beacon.store.crypto import new_key_slot
from beacon.wire.connections import client_tls

HOST = "127.0.0.1"
READY_DEADLINE_S = 45.0
CHILDREN = ("stub-mcp", "stub-llm", "serve")


class UpError(RuntimeError):
    """A child did not become healthy, or died."""


@dataclass(frozen=True, slots=True)
class Urls:
    chat: str
    mcp: str
    llm: str

    @property
    def mcp_origin(self) -> str:
        return self.mcp.removesuffix("/mcp")


# Ports the kernel never hands out on its own: a port from bind(0) comes from the local
# (ephemeral) range, where any outgoing connection may take it before the child binds
# it ("address already in use", seen once under a full suite); below that range only
# another server choosing the same port can, and each choice is random and bind-tested.
LISTEN_PORTS_FROM = 10_000
_EPHEMERAL_RANGE = Path("/proc/sys/net/ipv4/ip_local_port_range")
_CHOICES = 200


def free_port() -> int:
    """A loopback port free now, outside the kernel's ephemeral range where it has one."""
    low = _ephemeral_low()
    for _ in range(_CHOICES if low > LISTEN_PORTS_FROM else 0):
        port = random.randrange(LISTEN_PORTS_FROM, low)
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
            try:
                sock.bind((HOST, port))
            except OSError:
                continue
            return port
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((HOST, 0))
        return int(sock.getsockname()[1])


def _ephemeral_low() -> int:
    try:
        return int(_EPHEMERAL_RANGE.read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 0


def beacon_command() -> list[str]:
    script = Path(sys.executable).with_name("beacon")
    return [str(script)] if script.exists() else [sys.executable, "-m", "beacon"]


def wait_healthy(url: str, proc: subprocess.Popen[bytes], stop: threading.Event) -> None:
    """Poll ``url`` until it answers 200, the child dies, or the deadline passes."""
    deadline = threading.Event()
    timer = threading.Timer(READY_DEADLINE_S, deadline.set)
    timer.start()
    try:
        while not deadline.is_set() and not stop.is_set():
            if proc.poll() is not None:
                args = proc.args if isinstance(proc.args, list) else [proc.args]
                name = next((str(a) for a in args if str(a) in CHILDREN), str(args[0]))
                raise UpError(
                    f"`beacon {name}` exited with {proc.returncode} before {url} answered"
                )
            try:
                # One TLS context for every poll (httpx builds one a client: ~23 ms).
                if httpx.get(url, timeout=1.0, verify=client_tls()).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            stop.wait(0.1)
        raise UpError(f"{url} did not become healthy within {READY_DEADLINE_S:g}s")
    finally:
        timer.cancel()


@dataclass(frozen=True, slots=True)
class Fronted:
    """An MCP server the chat fronts through its contract instead of the stub's tools."""

    url: str
    contract: str
    token: str | None = None
    allow_drift: bool = False


class DevStack:
    def __init__(
        self,
        scenario: str,
        chat_port: int = 0,
        *,
        workers: int = 1,
        db: str | None = None,
        upstream: Fronted | None = None,
    ) -> None:
        self.scenario = scenario
        self.workers = workers
        self.db = db
        self.upstream = upstream
        # Dev data lives and dies with the stack: a fresh database and key per run.
        self._data = tempfile.TemporaryDirectory(prefix="beacon-up-")
        ports = (chat_port or free_port(), free_port(), free_port())
        self.urls = Urls(
            chat=f"http://{HOST}:{ports[0]}",
            mcp=f"http://{HOST}:{ports[1]}/mcp",
            llm=f"http://{HOST}:{ports[2]}/v1",
        )
        self._ports = ports
        self.procs: list[subprocess.Popen[bytes]] = []
        self.stop = threading.Event()

    def _spawn(self, *args: str, env: dict[str, str] | None = None) -> subprocess.Popen[bytes]:
        # The children's `listening on` lines stay out of `up`'s own stdout, which other
        # tools parse (the `chat:`/`mcp:`/`llm:` lines, then `ready`); errors still show.
        proc = subprocess.Popen(
            [*beacon_command(), *args],
            env={**os.environ, **(env or {})},
            stdout=subprocess.DEVNULL,
        )
        self.procs.append(proc)
        return proc

    def start(self) -> None:
        chat_port, mcp_port, llm_port = self._ports
        mcp = self._spawn("stub-mcp", "--port", str(mcp_port), "--scenario", self.scenario)
        llm = self._spawn("stub-llm", "--port", str(llm_port))
        drift = ["--allow-drift"] if self.upstream and self.upstream.allow_drift else []
        chat = self._spawn(
            "serve",
            "--port",
            str(chat_port),
            "--workers",
            str(self.workers),
            *drift,
            env=self.chat_env(),
        )
        wait_healthy(f"{self.urls.mcp_origin}/healthz", mcp, self.stop)
        wait_healthy(self.urls.llm.removesuffix("/v1") + "/healthz", llm, self.stop)
        wait_healthy(f"{self.urls.chat}/healthz", chat, self.stop)

    def chat_env(self) -> dict[str, str]:
        fronted = (
            {
                "BEACON_UPSTREAM_CONTRACT": str(Path(self.upstream.contract).resolve()),
                **({"BEACON_UPSTREAM_TOKEN": self.upstream.token} if self.upstream.token else {}),
            }
            if self.upstream
            else {}
        )
        return {
            **fronted,
            # The stub still issues the dev tokens (its JWKS below); the tools are the
            # fronted server's when there is one.
            "BEACON_MCP_URL": self.upstream.url if self.upstream else self.urls.mcp,
            "BEACON_LLM_BASE_URL": self.urls.llm,
            "BEACON_JWKS": f"{self.urls.mcp_origin}/.well-known/jwks.json",
            "BEACON_DB": self.db or str(Path(self._data.name) / "beacon.sqlite3"),
            "BEACON_KEYS": os.environ.get("BEACON_KEYS") or new_key_slot("dev1"),
            # A development stack: turns may pick a stub scenario (X-Beacon-Scenario).
            "BEACON_SCENARIOS": "allow",
        }

    def any_exited(self) -> bool:
        return any(p.poll() is not None for p in self.procs)

    def shutdown(self) -> None:
        self.stop.set()
        for proc in self.procs:
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        for proc in self.procs:
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=5)
        self._data.cleanup()


def print_urls(urls: Urls, upstream: Fronted | None = None) -> None:
    print(f"chat: {urls.chat}", flush=True)
    print(f"mcp: {urls.mcp}", flush=True)
    print(f"llm: {urls.llm}", flush=True)
    if upstream is not None:
        print(f"upstream: {upstream.url} (contract {upstream.contract})", flush=True)


def serve_until_signal(stack: DevStack) -> int:
    """Block until SIGINT/SIGTERM or a child's death; returns the exit code."""
    stopped_by_signal = threading.Event()

    def on_signal(_signum: int, _frame: object) -> None:
        stopped_by_signal.set()
        stack.stop.set()

    signal.signal(signal.SIGINT, on_signal)
    signal.signal(signal.SIGTERM, on_signal)
    while not stack.stop.wait(0.5):
        if stack.any_exited():
            print("a service exited; stopping the others", file=sys.stderr, flush=True)
            break
    stack.shutdown()
    return 0 if stopped_by_signal.is_set() else 1
