"""Start the three servers as real processes through ``beacon up``.

Tests and probes use this instead of in-process apps, so what they exercise is
the installed entry point a user runs, parsed from the same lines other tools
parse (SPEC §2.4).
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

import httpx

READY_TIMEOUT_S = 60.0


class StackError(RuntimeError):
    """The stack did not come up as ``beacon up`` promises."""


@dataclass(frozen=True, slots=True)
class Stack:
    chat_url: str
    mcp_url: str
    llm_url: str
    scenario: str
    # What `beacon up` and its servers printed so far (a failed test's report shows
    # its end: the one place a turn's dependency failure is named for a reader).
    output: list[str] = field(default_factory=list, compare=False, repr=False)

    @property
    def mcp_origin(self) -> str:
        parts = urlsplit(self.mcp_url)
        return f"{parts.scheme}://{parts.netloc}"

    def token(self, *, sub: str = "dev-user", tiers: tuple[str, ...] = ("enterprise_ai",)) -> str:
        response = httpx.post(
            f"{self.mcp_origin}/dev/tokens",
            json={"sub": sub, "tiers": list(tiers)},
            timeout=10.0,
        )
        response.raise_for_status()
        token = response.json()["token"]
        assert isinstance(token, str)
        return token


def printed_tails(values: Mapping[str, object], lines: int = 60) -> list[tuple[str, str]]:
    """(title, text) of the last ``lines`` each running stack among ``values`` printed:
    what a failed test's report carries, so a flake seen once in CI reads from its log."""
    return [
        (f"{name}: beacon up printed (last {lines} lines)", "\n".join(value.output[-lines:]))
        for name, value in values.items()
        if isinstance(value, Stack) and value.output
    ]


def beacon_executable() -> str:
    """The installed console script beside the running interpreter."""
    beside = Path(sys.executable).with_name("beacon")
    if beside.exists():
        return str(beside)
    found = shutil.which("beacon")
    if found is None:
        raise StackError("the `beacon` console script is not installed")
    return found


def parse_up_lines(lines: list[str]) -> dict[str, str]:
    """``name: URL`` lines before ``ready`` → {name: URL}."""
    urls: dict[str, str] = {}
    for line in lines:
        name, sep, value = line.partition(": ")
        if sep and name in {"chat", "mcp", "llm"}:
            urls[name] = value.strip()
    return urls


@contextmanager
def running_stack(
    scenario: str = "default",
    extra_env: dict[str, str] | None = None,
    *,
    workers: int = 1,
    db: str | None = None,
    executable: str | None = None,
    cwd: Path | None = None,
    up_args: tuple[str, ...] = (),
) -> Iterator[Stack]:
    """``beacon up`` as a child; with ``db`` (a postgresql:// URL) and ``workers``,
    a chat server of several processes on one port. ``executable`` and ``cwd``: an
    installed artifact's ``beacon``, run from a folder outside any checkout."""
    env = {**os.environ, **(extra_env or {})}
    store = ["--workers", str(workers)] + (["--db", db] if db else [])
    proc = subprocess.Popen(
        [executable or beacon_executable(), "up", "--scenario", scenario, *store, *up_args],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
        cwd=cwd,
        start_new_session=True,
    )
    assert proc.stdout is not None
    seen: list[str] = []
    ready = threading.Event()

    def pump() -> None:
        assert proc.stdout is not None
        for raw in proc.stdout:
            line = raw.rstrip("\n")
            seen.append(line)
            if line == "ready":
                ready.set()
        ready.set()  # EOF: the process died; wake the waiter

    threading.Thread(target=pump, daemon=True).start()
    try:
        if not ready.wait(READY_TIMEOUT_S) or "ready" not in seen:
            raise StackError("beacon up did not print `ready`:\n" + "\n".join(seen[-40:]))
        urls = parse_up_lines(seen)
        yield Stack(urls["chat"], urls["mcp"], urls["llm"], scenario, seen)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGINT)
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(timeout=5)
        proc.stdout.close()
