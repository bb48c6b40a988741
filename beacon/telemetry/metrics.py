"""The Prometheus series Beacon exports at ``GET /metrics`` (README "Metrics and traces").

Every series is defined here, once, with its labels; the loop, the server and the
clients call the small functions below where a verdict is used (never inside
``beacon.adjudication``: verdicts stay pure). Labels carry only code-made values
from closed sets: a terminal, an error code, a grade, a guard rule, a locale, a
capability, a tool of the fronted tool table (any other name is ``other``), never
a question, an argument, an id or a token.

Several worker processes (``beacon serve --workers N``) write their values into
``PROMETHEUS_MULTIPROC_DIR`` (``beacon serve`` makes and removes it) and any of
them renders the sum of all (``render``): prometheus_client's multiprocess mode.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from wsgiref.simple_server import WSGIServer

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
    start_http_server,
)
from prometheus_client.multiprocess import MultiProcessCollector

MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"
METRICS_ENV = "BEACON_METRICS"
CONTENT_TYPE = CONTENT_TYPE_LATEST

# Seconds: a first frame is milliseconds, a turn seconds (a 120 s answer deadline).
FIRST_FRAME_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
TURN_BUCKETS = (0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0)
TOOL_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)

TURNS_STARTED = Counter("beacon_turns_started_total", "Turns accepted (a start frame made)")
TURNS_ENDED = Counter(
    "beacon_turns_ended_total",
    "Turns ended, by terminal frame (done, error) and code (ok for done; the error's code)",
    ["terminal", "code"],
)
FIRST_FRAME = Histogram(
    "beacon_turn_first_frame_seconds",
    "From a turn's acceptance to its start frame being published (stored, streamable)",
    buckets=FIRST_FRAME_BUCKETS,
)
TURN_DURATION = Histogram(
    "beacon_turn_duration_seconds",
    "From a turn's acceptance to its terminal frame being published",
    ["terminal"],
    buckets=TURN_BUCKETS,
)
COUNTS = Counter("beacon_counts_total", "Counted results graded by code, by grade", ["grade"])
GUARD_DROPS = Counter(
    "beacon_narration_dropped_total",
    "Sentences of the model's answer the narration guard dropped, by rule and locale",
    ["rule", "locale"],
)
PERMISSIONS = Counter(
    "beacon_permission_verdicts_total",
    "PEP verdicts, by capability and decision (allowed, denied)",
    ["capability", "decision"],
)
TOOL_CALLS = Counter(
    "beacon_tool_calls_total",
    "Tool calls that went out, by tool and envelope verdict "
    "(ok, disguised_failure, no_accounting, error)",
    ["tool", "verdict"],
)
TOOL_SECONDS = Histogram(
    "beacon_tool_call_duration_seconds",
    "Tool call latency (the upstream round trip), by tool",
    ["tool"],
    buckets=TOOL_BUCKETS,
)
UPSTREAM_ERRORS = Counter(
    "beacon_upstream_errors_total",
    "Failures of the MCP upstream and the model endpoint, by service (mcp, llm) and cause",
    ["service", "cause"],
)
STREAMS = Gauge(
    "beacon_sse_streams_active",
    "SSE streams being served now, by route (turn: POST /v1/turns; events: a reattach)",
    ["route"],
    multiprocess_mode="livesum",
)
LOAD_MORE = Counter(
    "beacon_load_more_pages_total",
    "Load-more requests, by outcome (served, denied, no_more, error)",
    ["outcome"],
)
QUOTA_REFUSALS = Counter(
    "beacon_quota_refusals_total", "Turns refused before they started: the user's quota is spent"
)

TURNS_SHED = Counter(
    "beacon_turns_shed_total",
    "Turns answered 503 busy before they started: the process was at BEACON_MAX_TURNS",
)
UPSTREAM_CONNECTIONS = Counter(
    "beacon_upstream_connections_total",
    "Connections opened to the MCP upstream (a session's requests share one; the "
    "process's sessions share a pool): one per request means reuse is off",
)
UPSTREAM_RESENDS = Counter(
    "beacon_upstream_resends_total",
    "MCP requests sent again (never a tool call): the kept-alive connection was closed under them",
)
MODEL_RESENDS = Counter(
    "beacon_model_resends_total",
    "Model requests sent again: the kept-alive connection was closed under them",
)

TERMINALS = frozenset({"done", "error"})
GRADES = frozenset({"EXACT", "LOWER_BOUND", "SHOWN", "UNKNOWN"})
TOOL_VERDICTS = frozenset({"ok", "disguised_failure", "no_accounting", "error"})
SERVICES = frozenset({"mcp", "llm"})
STREAM_ROUTES = frozenset({"turn", "events"})
LOAD_MORE_OUTCOMES = frozenset({"served", "denied", "no_more", "error"})
LOCALES = frozenset({"en", "ko", "ja", "de", "es"})
# A code-made identifier (an error code, a guard rule, a capability): anything else is
# not ours to put in a label.
_CODE = re.compile(r"[a-z][a-z0-9_]{0,39}")
OTHER = "other"


def _closed(value: str | None, allowed: frozenset[str]) -> str:
    return value if value in allowed else OTHER


def _code(value: str | None) -> str:
    return value if value is not None and _CODE.fullmatch(value) else OTHER


def tool_label(tool: str, *, fronted: bool) -> str:
    """A tool's own name only when it is a row of the fronted tool table."""
    return tool if fronted and _CODE.fullmatch(tool) else OTHER


def turn_started() -> None:
    TURNS_STARTED.inc()


def first_frame(seconds: float) -> None:
    FIRST_FRAME.observe(seconds)


def turn_ended(terminal: str, code: str | None, seconds: float) -> None:
    terminal = _closed(terminal, TERMINALS)
    TURNS_ENDED.labels(terminal, "ok" if terminal == "done" else _code(code)).inc()
    TURN_DURATION.labels(terminal).observe(seconds)


def count_graded(grade: str) -> None:
    COUNTS.labels(_closed(grade, GRADES)).inc()


def narration_dropped(rule: str, locale: str) -> None:
    GUARD_DROPS.labels(_code(rule), _closed(locale, LOCALES)).inc()


def permission_verdict(capability: str | None, allowed: bool) -> None:
    PERMISSIONS.labels(_code(capability), "allowed" if allowed else "denied").inc()


def tool_called(tool: str, verdict: str, seconds: float) -> None:
    TOOL_CALLS.labels(tool, _closed(verdict, TOOL_VERDICTS)).inc()
    TOOL_SECONDS.labels(tool).observe(seconds)


def upstream_resent() -> None:
    UPSTREAM_RESENDS.inc()


def upstream_connection_opened() -> None:
    UPSTREAM_CONNECTIONS.inc()


def upstream_error(service: str, cause: str | None) -> None:
    UPSTREAM_ERRORS.labels(_closed(service, SERVICES), _code(cause)).inc()


def stream_opened(route: str) -> None:
    STREAMS.labels(_closed(route, STREAM_ROUTES)).inc()


def stream_closed(route: str) -> None:
    STREAMS.labels(_closed(route, STREAM_ROUTES)).dec()


def load_more_page(outcome: str) -> None:
    LOAD_MORE.labels(_closed(outcome, LOAD_MORE_OUTCOMES)).inc()


def turn_shed() -> None:
    """One turn answered 503 busy: the process was running its most turns."""
    TURNS_SHED.inc()


def model_resent() -> None:
    """One model request sent again on a fresh connection (``beacon.llm.client``): a
    steady rate says an endpoint or proxy closes idle connections sooner than 4 s."""
    MODEL_RESENDS.inc()


def quota_refused() -> None:
    """One turn refused over quota (called by the quota check, before any model or
    upstream call)."""
    QUOTA_REFUSALS.inc()


def multiprocess() -> bool:
    return bool(os.environ.get(MULTIPROC_ENV))


def registry() -> CollectorRegistry:
    """What a scrape reads: this process's series, or every worker's summed."""
    if not multiprocess():
        return REGISTRY
    merged = CollectorRegistry()
    MultiProcessCollector(merged)  # type: ignore[no-untyped-call]
    return merged


def render() -> bytes:
    """The Prometheus text exposition of ``registry()``."""
    return generate_latest(registry())


class MetricsSettingError(ValueError):
    """``BEACON_METRICS`` is not on, off or a port."""


@dataclass(frozen=True, slots=True)
class MetricsSetting:
    """``BEACON_METRICS``: ``on`` (default; ``GET /metrics`` on the chat port), ``off``
    (not served), or a port number (served there, on ``BEACON_METRICS_HOST``,
    default 127.0.0.1, and not on the chat port)."""

    route: bool
    port: int | None = None
    host: str = "127.0.0.1"


def metrics_setting(environ: Mapping[str, str] | None = None) -> MetricsSetting:
    env = os.environ if environ is None else environ
    raw = env.get(METRICS_ENV, "on").strip().lower()
    host = env.get("BEACON_METRICS_HOST", "127.0.0.1")
    if raw in ("", "on"):
        return MetricsSetting(route=True, host=host)
    if raw == "off":
        return MetricsSetting(route=False, host=host)
    if raw.isascii() and raw.isdigit() and 1 <= int(raw) <= 65535:
        return MetricsSetting(route=False, port=int(raw), host=host)
    raise MetricsSettingError(f"{METRICS_ENV} must be on, off or a port (1-65535), got {raw!r}")


def serve_port(setting: MetricsSetting) -> WSGIServer:
    """``BEACON_METRICS=PORT``: the exposition on its own port (a daemon thread), for
    this process or, in ``beacon serve``'s supervisor, for every worker."""
    assert setting.port is not None
    server, _ = start_http_server(setting.port, addr=setting.host, registry=registry())
    return server
