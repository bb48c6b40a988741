"""What a browser test page said: console lines and uncaught script errors."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class PageLog:
    """What the page said on its console, and any uncaught script errors."""

    console: list[tuple[str, str]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def warnings(self) -> list[str]:
        return [text for kind, text in self.console if kind == "warning"]
