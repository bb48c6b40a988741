"""Browser tests' shared parts: Debian's Chromium, and what a page said.

`playwright install` cannot download here: the launch always names Debian's
binary, with the flags that keep it off the closed network.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

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


class ChromiumMissing(RuntimeError):
    """Debian's Chromium is not installed: one line naming the fix, not Playwright's
    advice to run `playwright install` (which cannot download here)."""


def require_chromium(path: str = CHROMIUM) -> None:
    if not Path(path).exists():
        raise ChromiumMissing(
            f"Debian's Chromium is not at {path}: install it with "
            "`apt-get install --no-install-recommends chromium` (make test does so when missing)"
        )


@contextmanager
def chromium() -> Iterator[Browser]:
    require_chromium()
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS, timeout=30_000
        )
        try:
            yield launched
        finally:
            launched.close()


@dataclass(frozen=False)  # the page's console and error handlers append as it runs
class PageLog:
    """What the page said on its console, and any uncaught script errors."""

    console: list[tuple[str, str]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def warnings(self) -> list[str]:
        return [text for kind, text in self.console if kind == "warning"]
