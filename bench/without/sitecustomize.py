"""The breakdown's switch (``bench/breakdown.py``): loaded through ``PYTHONPATH`` into
the one chat server the breakdown starts without a part, and only when
``BEACON_BENCH_WITHOUT`` names the parts. Not part of Beacon, never in a served
deployment: it replaces a part of the running server by nothing, so that the
server's CPU and time per turn without it, beside a whole server, say what the
part costs.

A part it cannot find to switch off stops the server at start (a renamed function
must not quietly leave the part on and the figures meaning nothing).
"""

from __future__ import annotations

import os
import sys
from typing import Any

_PARTS = frozenset(filter(None, os.environ.get("BEACON_BENCH_WITHOUT", "").split(",")))


def _replace(module: str, path: str, value: Any) -> None:
    owner: Any = __import__(module, fromlist=["_"])
    *parents, name = path.split(".")
    for parent in parents:
        owner = getattr(owner, parent)
    if not hasattr(owner, name):
        raise SystemExit(f"bench.breakdown: {module}.{path} is gone; update bench/without")
    setattr(owner, name, value)


def _without_store() -> None:
    # Durable publication: no frame, answer or audit row written; frames still pass
    # through the writer and are published as before.
    # (The answer's rows ride in its frames' commit: ``TurnStore.append_frames``.)
    _replace("beacon.store.turns", "TurnStore.append_frames", lambda self, *a, **k: None)


def _without_guard() -> None:
    # The narration guard's verdicts: every sentence the model writes is publishable.
    _replace("beacon.loop.guarded_answer", "judge", lambda sentence, standing, locale: None)


def _without_telemetry() -> None:
    # Prometheus series and OpenTelemetry spans: no series updated, no span started.
    # Derived, not listed: every public function of the metrics module that returns
    # None updates a series (the others read or serve them), and every `tracer()` of
    # every module asks `configure_tracing` for its provider — so one added later is
    # off too, rather than left on to understate telemetry's share.
    import inspect

    from opentelemetry.trace import NoOpTracerProvider

    metrics: Any = __import__("beacon.telemetry.metrics", fromlist=["_"])
    operations = [
        name
        for name, value in vars(metrics).items()
        if inspect.isfunction(value)
        and value.__module__ == metrics.__name__
        and not name.startswith("_")
        and inspect.signature(value).return_annotation in ("None", None)
    ]
    if not operations:
        raise SystemExit("bench.breakdown: no metric operation found; update bench/without")
    for name in operations:
        _replace("beacon.telemetry.metrics", name, lambda *a, **k: None)
    silent = NoOpTracerProvider()
    _replace("beacon.telemetry.tracing", "configure_tracing", lambda: silent)


SWITCHES = {"store": _without_store, "guard": _without_guard, "telemetry": _without_telemetry}

if _PARTS and sys.argv[1:2] == ["serve"]:
    unknown = _PARTS - SWITCHES.keys()
    if unknown:
        raise SystemExit(f"bench.breakdown: no part named {', '.join(sorted(unknown))}")
    for part in sorted(_PARTS):
        SWITCHES[part]()
