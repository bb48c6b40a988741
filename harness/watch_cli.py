"""The commands over a live upstream: ``beacon sweep --upstream URL`` (once, written to
``reports/sweep/upstream.json``) and ``beacon watch --every DURATION`` (on a schedule,
``harness.watch``). Exits: 0 no drift, 1 drift (one ``drift:`` line per boundary),
2 usage, 3 the upstream unreachable or refusing the bearer."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

if TYPE_CHECKING:
    from harness.audit_upstream.client import Target

# The work is imported when a command runs: registering these must not load the MCP
# SDK and prometheus_client into every `beacon` start.
EXIT_USAGE = 2
URL_ENV = "BEACON_MCP_URL"
TOKEN_ENV = "BEACON_UPSTREAM_TOKEN"

UpstreamOpt = Annotated[
    str | None,
    typer.Option(
        "--upstream", help=f"the MCP URL to check over streamable HTTP (default: {URL_ENV})"
    ),
]
OutOpt = Annotated[
    Path | None,
    typer.Option("--out", help="where the records go (default: reports/sweep under --root)"),
]
RootOpt = Annotated[Path, typer.Option(help="repository root (its boundary registry)")]
TokenOpt = Annotated[
    str | None, typer.Option("--token", help=f"the upstream's bearer (default: {TOKEN_ENV})")
]


def target_of(command: str, upstream: str | None, token: str | None) -> Target:
    from harness.audit_upstream.client import Target

    url = upstream or os.environ.get(URL_ENV)
    if not url:
        typer.echo(f"beacon {command}: give the MCP URL with --upstream (or {URL_ENV})", err=True)
        raise typer.Exit(EXIT_USAGE)
    return Target(url=url, token=token or os.environ.get(TOKEN_ENV) or None)


def out_dir(root: Path, out: Path | None) -> Path:
    from harness.live_sweep import SWEEP_DIR

    return out if out is not None else root.resolve() / SWEEP_DIR


def live_sweep(root: Path, upstream: str, token: str | None, out: Path | None = None) -> None:
    from harness.audit_upstream.errors import TargetUnavailable
    from harness.live_sweep import UPSTREAM_RECORD, run_live_sweep, write_json
    from harness.watch import EXIT_UNREACHABLE

    target = target_of("sweep", upstream, token)
    try:
        record = run_live_sweep(root, target)
    except TargetUnavailable as exc:
        typer.echo(f"beacon sweep: {exc}", err=True)
        raise typer.Exit(EXIT_UNREACHABLE) from exc
    path = write_json(out_dir(root, out) / UPSTREAM_RECORD, record)
    for line in record["drift"]:
        typer.echo(line)
    typer.echo(
        f"swept {record['count']} upstream boundaries against {target.label}: "
        f"{record['count'] - len(record['drift'])} hold, {len(record['drift'])} drifted; "
        f"{record['wall_seconds']}s → {path}"
    )
    raise typer.Exit(0 if record["ok"] else 1)


def _say(entry: dict[str, Any]) -> None:
    for line in entry["drift"]:
        typer.echo(line)
    if entry["error"]:
        typer.echo(f"unreachable: {entry['error']}")
    held = sum(1 for f in entry["findings"] if f["verdict"] == "pass")
    typer.echo(
        f"watch {entry['at']}: {entry['outcome']} ({held}/{len(entry['findings'])} boundaries "
        f"hold) against {entry['upstream']}"
    )


def watch_command(
    every: Annotated[
        str, typer.Option("--every", help="the time between runs: 30s, 15m, 1h, 1d")
    ] = "15m",
    upstream: UpstreamOpt = None,
    token: TokenOpt = None,
    once: Annotated[bool, typer.Option("--once", help="one run; exit 1 on drift")] = False,
    times: Annotated[
        int | None, typer.Option("--times", min=1, help="stop after this many runs")
    ] = None,
    root: RootOpt = Path("."),
    out: OutOpt = None,
) -> None:
    """Check the live upstream against the pinned boundaries on a schedule; each run goes to
    reports/sweep/watch.json and the metrics textfile reports/sweep/watch.prom."""
    from beacon.cli.report import duration_seconds
    from harness.watch import WATCH_METRICS, WATCH_RECORD, watch

    every_s = duration_seconds(every)
    if every_s is None:
        typer.echo(f"beacon watch: --every {every!r} is not a duration (30s, 15m, 1h)", err=True)
        raise typer.Exit(EXIT_USAGE)
    target = target_of("watch", upstream, token)
    where = out_dir(root, out)
    code = watch(
        root.resolve(), target, out=where, every_s=every_s, times=1 if once else times, report=_say
    )
    typer.echo(f"watch record: {where / WATCH_RECORD}; metrics: {where / WATCH_METRICS}", err=True)
    raise typer.Exit(code)
