"""``beacon watch``: the live sweep (``harness.live_sweep``) on a schedule.

Each run is appended to ``reports/sweep/watch.json`` (time, ok, findings) and
written as a Prometheus textfile, ``reports/sweep/watch.prom`` (beside the sweep's
``latest.json``; ``--out`` moves them): the watch is a
short-lived command, not a server, so a textfile (node_exporter's textfile
collector, or ``cat``) is what an operator can scrape without a port to keep open.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from prometheus_client import CollectorRegistry, Gauge, write_to_textfile
from prometheus_client.core import CounterMetricFamily, Metric
from prometheus_client.registry import Collector

from harness.audit_upstream.client import Target
from harness.audit_upstream.errors import TargetUnavailable
from harness.live_sweep import run_live_sweep, write_json

WATCH_RECORD = "watch.json"
WATCH_METRICS = "watch.prom"
# The record keeps the latest runs only: a watch left running for months must not
# grow its record without bound (the runs counter keeps the whole count).
KEPT_RUNS = 500
EXIT_OK, EXIT_DRIFT, EXIT_UNREACHABLE = 0, 1, 3


def one_run(root: Path, target: Target) -> dict[str, Any]:
    """One live sweep as a watch entry; an unreachable upstream is an entry, not a crash."""
    try:
        record = run_live_sweep(root, target)
    except TargetUnavailable as exc:
        return {
            "at": datetime.now(UTC).isoformat(timespec="seconds"),
            "upstream": target.label,
            "ok": False,
            "outcome": "unreachable",
            "error": str(exc),
            "drift": [],
            "findings": [],
        }
    return {
        "at": record["swept_at"],
        "upstream": target.label,
        "ok": record["ok"],
        "outcome": "ok" if record["ok"] else "drift",
        "error": None,
        "drift": record["drift"],
        "findings": record["boundaries"],
    }


def read_watch(out: Path) -> dict[str, Any]:
    try:
        loaded = json.loads((out / WATCH_RECORD).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        loaded = None
    if not isinstance(loaded, dict) or not isinstance(loaded.get("runs"), list):
        return {"runs": [], "runs_total": {}}
    return loaded


def record_run(out: Path, entry: dict[str, Any]) -> dict[str, Any]:
    """Append ``entry`` to the watch record in ``out`` and rewrite the metrics textfile."""
    record = read_watch(out)
    totals = {str(k): int(v) for k, v in dict(record.get("runs_total", {})).items()}
    totals[entry["outcome"]] = totals.get(entry["outcome"], 0) + 1
    record = {"runs": [*record["runs"], entry][-KEPT_RUNS:], "runs_total": totals, "last": entry}
    write_json(out / WATCH_RECORD, record)
    write_metrics(out / WATCH_METRICS, entry, totals)
    return record


class _Fixed(Collector):
    def __init__(self, metric: Metric) -> None:
        self._metric = metric

    def collect(self) -> Iterator[Metric]:
        yield self._metric


def write_metrics(path: Path, entry: dict[str, Any], totals: dict[str, int]) -> None:
    registry = CollectorRegistry()
    drift = Gauge(
        "beacon_watch_drift",
        "1 when the live upstream drifted from this pinned boundary at the last run",
        ["boundary"],
        registry=registry,
    )
    for finding in entry["findings"]:
        drift.labels(finding["id"]).set(0 if finding["verdict"] == "pass" else 1)
    # A family, not a Counter: the total spans many watch processes, and a Counter
    # would add a _created series stamped with this process's start.
    runs = CounterMetricFamily(
        "beacon_watch_runs", "watch runs by outcome (ok, drift, unreachable)", labels=["outcome"]
    )
    for outcome, count in sorted(totals.items()):
        runs.add_metric([outcome], count)
    registry.register(_Fixed(runs))
    Gauge("beacon_watch_ok", "1 when the last run found no drift", registry=registry).set(
        1 if entry["ok"] else 0
    )
    Gauge(
        "beacon_watch_last_run_timestamp_seconds", "when the last run ended", registry=registry
    ).set(datetime.fromisoformat(entry["at"]).timestamp())
    path.parent.mkdir(parents=True, exist_ok=True)
    write_to_textfile(str(path), registry)


def exit_code(entry: dict[str, Any]) -> int:
    return {"ok": EXIT_OK, "drift": EXIT_DRIFT}.get(entry["outcome"], EXIT_UNREACHABLE)


def watch(
    root: Path,
    target: Target,
    *,
    out: Path,
    every_s: float,
    times: int | None,
    report: Callable[[dict[str, Any]], None],
    stop: threading.Event | None = None,
) -> int:
    """Run ``times`` sweeps (forever when None) ``every_s`` apart; the last run's exit code."""
    stop = stop or threading.Event()
    done, code = 0, EXIT_OK
    while times is None or done < times:
        entry = one_run(root, target)
        record_run(out, entry)
        report(entry)
        done, code = done + 1, exit_code(entry)
        # An Event, not sleep: a signal handler (or a test) can end the wait at once.
        if (times is None or done < times) and stop.wait(every_s):
            break
    return code
