"""Browser tests' shared parts: Debian's Chromium, and what a page said.

`playwright install` cannot download here: the launch always names Debian's
binary, with the flags that keep it off the closed network.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from playwright.sync_api import Browser, sync_playwright

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@contextmanager
def chromium() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS, timeout=30_000
        )
        try:
            yield launched
        finally:
            launched.close()


@dataclass
class PageLog:
    """What the page said on its console, and any uncaught script errors."""

    console: list[tuple[str, str]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def warnings(self) -> list[str]:
        return [text for kind, text in self.console if kind == "warning"]
