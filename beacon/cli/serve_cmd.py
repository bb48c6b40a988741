"""``beacon up`` and ``beacon serve``: the development stack on loopback, and the
chat server alone (uvicorn, settings from the environment, one or more workers)."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Annotated

import typer

from beacon.cli.commands import (
    AccessLogOpt,
    AllowDriftOpt,
    HostOpt,
    ScenarioOpt,
    WorkersOpt,
    check_known_scenario,
    require_stub_commands,
)
from beacon.cli.errors import Exit, check_database, check_port_free, fail
from beacon.cli.store_cmd import show_retention
from beacon.extras import missing_extra
from beacon.store.backends import is_postgres


def up(
    scenario: ScenarioOpt = "default",
    chat_port: Annotated[int, typer.Option(help="the chat server's port; 0 picks a free one")] = 0,
    workers: WorkersOpt = 1,
    db: Annotated[
        str | None,
        typer.Option(
            help="the chat server's store: a postgresql:// URL (needed for --workers > 1); "
            "default: a fresh SQLite file for this run"
        ),
    ] = None,
    upstream_mcp: Annotated[
        str | None,
        typer.Option(
            help="front this MCP server (streamable HTTP URL) instead of the stub's tools; "
            "needs --upstream-contract"
        ),
    ] = None,
    upstream_contract: Annotated[
        str | None,
        typer.Option(
            help="the upstream's declared contract (YAML; `beacon audit-upstream "
            "--contract-out` writes one to complete)"
        ),
    ] = None,
    upstream_token: Annotated[
        str | None, typer.Option(help="the bearer the upstream is sent (default: none)")
    ] = None,
    allow_drift: AllowDriftOpt = False,
) -> None:
    """Start stub MCP, stub LLM and the chat server on loopback; Ctrl-C stops all three.
    The stub MCP server issues the dev tokens; with --upstream-mcp the chat fronts that
    server's tools through its contract instead of the stub's."""
    # Here, not at the top: every `beacon` command loads this module at start, and
    # the stack's HTTP client is a tenth of a second of it (beacon/lazy.py).
    from beacon.cli.up import DevStack, Fronted, UpError, print_urls, serve_until_signal

    require_stub_commands("up")
    # Everything that can be refused is refused before the first process starts.
    check_known_scenario("up", scenario)
    _check_workers("up", workers, db)
    check_port_free("up", "127.0.0.1", chat_port, "--chat-port")
    if db and is_postgres(db):
        check_database("up", db)
    upstream = None
    if (upstream_mcp is None) != (upstream_contract is None):
        fail("up", "--upstream-mcp and --upstream-contract go together", Exit.USAGE)
    if upstream_mcp is not None and upstream_contract is not None:
        # Imported here: the MCP client is most of a second to import, and every other
        # command (a stub, a gate, a sweep) would pay it at start-up.
        from beacon.cli.upstream import check_upstream, contract_or_fail

        contract = contract_or_fail("up", upstream_contract)
        check_upstream("up", contract, upstream_mcp, token=upstream_token, allow_drift=allow_drift)
        upstream = Fronted(upstream_mcp, upstream_contract, upstream_token, allow_drift)
    stack = DevStack(scenario, chat_port, workers=workers, db=db, upstream=upstream)
    try:
        stack.start()
    except (UpError, OSError) as exc:
        stack.shutdown()
        fail("up", f"{exc} (its own error is above)", Exit.FAILED, exc)
    except KeyboardInterrupt:
        stack.shutdown()
        raise typer.Exit(130) from None
    print_urls(stack.urls, upstream)
    print("ready", flush=True)
    raise typer.Exit(serve_until_signal(stack))


def serve(
    port: Annotated[int, typer.Option(help="the port to listen on")],
    host: HostOpt = "127.0.0.1",
    workers: WorkersOpt = 1,
    access_log: AccessLogOpt = False,
    allow_drift: AllowDriftOpt = False,
) -> None:
    """Run the chat server (settings from BEACON_* environment variables); prints
    `listening on http://HOST:PORT` once it accepts connections. With
    BEACON_UPSTREAM_CONTRACT it fronts that MCP server, checked against its contract first."""
    import uvicorn

    from beacon.cli.access_log import APP_FACTORY, LOGGED_APP_FACTORY, run_listening
    from beacon.server.limits import LimitedH11Protocol, connection_limits
    from beacon.server.settings import SettingsError, settings_from_env
    from beacon.telemetry.metrics import MetricsSettingError, metrics_setting

    try:
        settings = settings_from_env()
        connection_limits(settings)  # a cap the fd limit cannot serve refuses the start
        exposition = metrics_setting()
    except (SettingsError, MetricsSettingError) as exc:
        fail("serve", str(exc), Exit.USAGE, exc)
    _check_workers("serve", workers, settings.db)
    show_retention("serve")
    check_port_free("serve", host, port, "--port")
    if exposition.port is not None:
        check_port_free("serve", exposition.host, exposition.port, "BEACON_METRICS")
    if is_postgres(settings.db):
        check_database("serve", settings.db)
    if settings.upstream_contract is not None:
        from beacon.cli.upstream import check_upstream, hand_to_workers

        hand_to_workers(
            check_upstream(
                "serve",
                settings.upstream_contract,
                settings.mcp_url,
                token=settings.upstream_token,
                allow_drift=allow_drift,
                timeout_s=settings.mcp_timeout_s,
            )
        )
    # Several workers share one port (uvicorn's supervisor); each builds its own app
    # from the same environment, and they meet in the store.
    config = uvicorn.Config(
        LOGGED_APP_FACTORY if access_log else APP_FACTORY,
        factory=True,
        workers=workers,
        host=host,
        port=port,
        log_level="warning",
        access_log=False,  # uvicorn's own line carries the query string: ours does not
        # h11, not httptools: h11 refuses a request head (line and headers) over
        # its cap, where httptools took a 60 MB header whole. The body's cap is
        # the app's (beacon/server/edge.py), checked before the body is read.
        # The protocol adds the connection cap, the head deadline and the head cap
        # on a head complete in one read (beacon/server/limits.py); each worker
        # imports the class and reads the same limits from the environment.
        http=LimitedH11Protocol,
        h11_max_incomplete_event_size=settings.max_header_bytes,
        timeout_keep_alive=settings.keep_alive_s,
    )
    with _metrics_dir(workers):
        # BEACON_METRICS=PORT with several workers: this supervisor serves their sum.
        scrape = None
        if exposition.port is not None and workers > 1:
            from beacon.telemetry.metrics import serve_port

            scrape = serve_port(exposition)
        try:
            run_listening(config)
        finally:
            if scrape is not None:
                scrape.shutdown()


@contextmanager
def _metrics_dir(workers: int) -> Iterator[None]:
    """Several workers write their series into one fresh directory (prometheus_client's
    multiprocess mode, ``PROMETHEUS_MULTIPROC_DIR``), which is removed when they stop.
    One already set is the operator's: used as it is, and kept."""
    if workers <= 1 or os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        yield
        return
    with tempfile.TemporaryDirectory(prefix="beacon-metrics-") as path:
        os.environ["PROMETHEUS_MULTIPROC_DIR"] = path
        try:
            yield
        finally:
            os.environ.pop("PROMETHEUS_MULTIPROC_DIR", None)


def _check_workers(command: str, workers: int, db: str | None) -> None:
    """More than one process needs the shared store: SQLite has one writer; a
    PostgreSQL store needs its driver (the ``postgres`` extra)."""
    if is_postgres(db or "") and (hint := missing_extra("postgres")):
        typer.echo(f"beacon {command}: a PostgreSQL store {hint}", err=True)
        raise typer.Exit(2)
    if workers > 1 and not is_postgres(db or ""):
        typer.echo(
            f"beacon {command}: --workers {workers} needs a PostgreSQL store "
            "(BEACON_DB / --db postgresql://…); SQLite is written by one process",
            err=True,
        )
        raise typer.Exit(2)
