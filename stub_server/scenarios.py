"""Scenarios: data files naming, per tool call in order, the fault mode in force.

Exceptions::

    ScenarioError
     ├── UnknownScenario   no such file (or a name that is not kebab-case)
     └── InvalidScenario   the file exists but does not follow the format
"""

from __future__ import annotations

import functools
import re
import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any

import yaml

SCENARIO_DIR = Path(__file__).with_name("scenarios")
_NAME = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
WILDCARD = "*"


class Mode(StrEnum):
    OK = "ok"
    LEGACY = "legacy"
    INBAND_502 = "inband_502"
    AUTH_EMPTY = "auth_empty"
    PROSE_REPLY = "prose_reply"
    DEGRADED_EMPTY = "degraded_empty"
    ZERO_HITS = "zero_hits"
    CURSOR_REJECTED = "cursor_rejected"
    CURSOR_DRIFT = "cursor_drift"
    SLOW = "slow"
    JSONRPC_ERROR = "jsonrpc_error"
    # Not a fault: photo hits at the weight the real upstream sends them
    # (stub_server/photo_detail.py).
    MEASURED = "measured"


# Modes whose results still honour the tool's outputSchema (or raise instead of
# answering). A scenario using any other mode makes that tool stop declaring an
# outputSchema, as an older deployment would — otherwise SDK clients reject the
# shape before the caller ever sees it.
SCHEMA_MODES = frozenset(
    {Mode.OK, Mode.ZERO_HITS, Mode.CURSOR_DRIFT, Mode.SLOW, Mode.JSONRPC_ERROR, Mode.MEASURED}
)


class ScenarioError(Exception):
    """Root of the scenario errors."""


class UnknownScenario(ScenarioError):
    def __init__(self, name: str) -> None:
        super().__init__(f"unknown scenario {name!r}")
        self.name = name


class InvalidScenario(ScenarioError):
    pass


@dataclass(frozen=True, slots=True)
class Scenario:
    name: str
    description: str
    model: str
    tools: Mapping[str, tuple[Mode, ...]]
    extra: Mapping[str, Any] = field(default_factory=dict)

    def modes_for(self, tool: str) -> tuple[Mode, ...]:
        return self.tools.get(tool) or self.tools.get(WILDCARD) or (Mode.OK,)

    def declares_output_schema(self, tool: str) -> bool:
        return all(mode in SCHEMA_MODES for mode in self.modes_for(tool))


def _modes(name: str, tool: object, raw: object) -> tuple[Mode, ...]:
    entries = raw if isinstance(raw, list) else [raw]
    if not entries or not all(isinstance(entry, str) for entry in entries):
        raise InvalidScenario(f"{name}: tool {tool!r} must name one mode or a list of modes")
    try:
        return tuple(Mode(str(entry)) for entry in entries)
    except ValueError as exc:
        valid = ", ".join(m.value for m in Mode)
        raise InvalidScenario(f"{name}: tool {tool!r}: {exc} (valid modes: {valid})") from exc


def parse_scenario(name: str, data: object) -> Scenario:
    if not isinstance(data, dict):
        raise InvalidScenario(f"{name}: the file must hold a mapping")
    if data.get("name") != name:
        raise InvalidScenario(f"{name}: `name` must equal the file name, got {data.get('name')!r}")
    description, model = data.get("description", ""), data.get("model", "beacon-rules")
    if not isinstance(description, str) or not isinstance(model, str):
        raise InvalidScenario(f"{name}: `description` and `model` must be strings")
    tools = data.get("tools") or {}
    if not isinstance(tools, dict):
        raise InvalidScenario(f"{name}: `tools` must map tool names to modes")
    modes = {str(tool): _modes(name, tool, raw) for tool, raw in tools.items()}
    extra = {k: v for k, v in data.items() if k not in {"name", "description", "model", "tools"}}
    return Scenario(name, description, model, modes, extra)


@functools.lru_cache(maxsize=64)
def load_scenario(name: str) -> Scenario:
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        raise UnknownScenario(str(name))
    path = SCENARIO_DIR / f"{name}.yaml"
    if not path.is_file():
        raise UnknownScenario(name)
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as exc:
        raise InvalidScenario(f"{name}: not valid YAML: {exc}") from exc
    return parse_scenario(name, data)


def available_scenarios() -> list[str]:
    return sorted(p.stem for p in SCENARIO_DIR.glob("*.yaml") if _NAME.fullmatch(p.stem))


class CallCounter:
    """Per (scenario, tool) call ordering within the process; the last mode repeats."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._seen: dict[tuple[str, str], int] = {}

    def next_mode(self, scenario: Scenario, tool: str) -> Mode:
        modes = scenario.modes_for(tool)
        with self._lock:
            index = self._seen.get((scenario.name, tool), 0)
            self._seen[(scenario.name, tool)] = index + 1
        return modes[min(index, len(modes) - 1)]

    def reset(self) -> None:
        with self._lock:
            self._seen.clear()
