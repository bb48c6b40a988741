"""The harness's ``beacon`` commands: sweep, boundaries, check-executed, audit, probe, verify,
audit-upstream.

``register`` is the ``harness`` entry point of the ``beacon.commands`` group
(pyproject.toml): ``beacon.cli.main`` calls it with its typer app at start, so
the product never imports the harness. The work lives in the harness modules,
imported when a command runs; these are thin adapters that map results to exits.
"""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path
from typing import Annotated

import typer

RootOpt = Annotated[Path, typer.Option(help="repository root to work on")]


def _sweep(
    root: RootOpt = Path("."),
    upstream: Annotated[
        str | None,
        typer.Option(help="check the upstream boundaries against this live MCP URL instead"),
    ] = None,
    token: Annotated[str | None, typer.Option(help="the live upstream's bearer")] = None,
    out: Annotated[
        Path | None, typer.Option(help="with --upstream: where upstream.json goes")
    ] = None,
) -> None:
    """Run every boundary's check; write reports/sweep/latest.json; exit 1 on any failure.
    With --upstream: the upstream's boundaries against a live MCP server (upstream.json)."""
    from harness.sweep import run_sweep, write_record

    if upstream is not None:
        from harness.watch_cli import live_sweep

        live_sweep(root, upstream, token, out)

    # The seam checks run the product in this process, and it says what a server says
    # (its start-up lines, the warning of a turn a check makes fail on purpose): kept
    # back, and shown only when the sweep is red, after its verdicts.
    printed = io.StringIO()
    with contextlib.redirect_stderr(printed):
        record = run_sweep(root)
    path = write_record(root.resolve(), record)
    for problem in record["problems"]:
        typer.echo(f"registry: {problem['file']}: {problem['field']}: {problem['message']}")
    for verdict in record["boundaries"]:
        if verdict["verdict"] != "pass":
            typer.echo(
                f"{verdict['verdict']}: {verdict['id']} ({verdict['file']}): "
                f"{verdict['field']}: {verdict['message']}"
            )
    passed = sum(1 for v in record["boundaries"] if v["verdict"] == "pass")
    kinds = " ".join(f"{k}={n}" for k, n in record["by_kind"].items())
    typer.echo(
        f"swept {record['count']} boundaries ({kinds}): {passed} pass, "
        f"{record['count'] - passed} not; {len(record['problems'])} registry problems; "
        f"{record['wall_seconds']}s at {record['commit'][:12]} → {path}"
    )
    if not record["ok"] and printed.getvalue():
        typer.echo("what the checks printed:", err=True)
        typer.echo(printed.getvalue().rstrip("\n"), err=True)
    raise typer.Exit(0 if record["ok"] else 1)


boundaries_app = typer.Typer(no_args_is_help=True, help="The boundary registry.")


@boundaries_app.command("list")
def _list(
    by_kind: Annotated[bool, typer.Option("--by-kind", help="counts per kind")] = False,
    root: RootOpt = Path("."),
) -> None:
    """List the registered boundaries (or their counts per kind)."""
    from boundaries import load_registry

    registry = load_registry(root.resolve())
    for problem in registry.problems:
        typer.echo(f"registry: {problem}", err=True)
    if by_kind:
        for kind, items in registry.by_kind().items():
            typer.echo(f"{kind}: {len(items)}")
        typer.echo(f"total: {len(registry.boundaries)}")
    else:
        for boundary in sorted(registry.boundaries, key=lambda b: (b.kind, b.id)):
            typer.echo(f"{boundary.kind}\t{boundary.id}\t{boundary.title}")
    raise typer.Exit(1 if registry.problems else 0)


def _check_executed(
    junit: Annotated[Path, typer.Option(help="the run's JUnit XML")],
    root: RootOpt = Path("."),
) -> None:
    """The whole run must be green, and every evidence test and required group must
    have executed and passed."""
    from boundaries import load_registry
    from harness.executed import JunitError, check_executed, read_junit, requirements

    try:
        record = read_junit(junit)
    except JunitError as exc:
        typer.echo(str(exc), err=True)
        raise typer.Exit(1) from exc
    tree = root.resolve()
    report = check_executed(record.outcomes(), requirements(load_registry(tree), tree))
    for problem in record.problems(limit=20):
        typer.echo(f"red: {problem}")
    for shortfall in report.shortfalls:
        typer.echo(f"not executed: {shortfall}")
    problems = [f"the run is red ({record.summary()})"] if record.red else []
    problems += [f"{len(report.shortfalls)} shortfalls"] if not report.ok else []
    typer.echo(
        f"check-executed: {report.required} required tests/groups, "
        f"{report.cases_seen} case{'' if report.cases_seen == 1 else 's'} in the JUnit record "
        f"({record.summary()}): " + ("; ".join(problems) or "ok")
    )
    raise typer.Exit(1 if problems else 0)


audit_app = typer.Typer(no_args_is_help=True, help="Audits.")


@audit_app.command("fan-in")
def _fan_in(
    junit: Annotated[Path | None, typer.Option(help="count only tests that passed here")] = None,
    root: RootOpt = Path("."),
) -> None:
    """Per gate: items directly behind it, and how many lack their own execution evidence."""
    from harness.executed import junit_cases
    from harness.fanin import HIGH_OVER, WARN_OVER, audit

    passed = None
    if junit is not None:
        passed = {c.split("::")[0] for c, s in junit_cases(junit).items() if s == "passed"}
    # A report, never a verdict: it exits 0 at every level (harness/fanin.py says why).
    for gate in audit(root.resolve(), passed):
        typer.echo(
            f"gate {gate.gate}: {len(gate.behind)} items behind it, {len(gate.unevidenced)} "
            f"without their own execution evidence → {gate.level} "
            f"(warn over {WARN_OVER}, louder over {HIGH_OVER}; never a failure)"
        )
        for module, fan in gate.worst:
            typer.echo(f"  {module} (imported by {fan})")


def _probe(
    name: Annotated[str | None, typer.Argument(help="probe name")] = None,
    list_: Annotated[bool, typer.Option("--list", help="list the probes")] = False,
    all_: Annotated[bool, typer.Option("--all", help="run every probe")] = False,
    scenario: Annotated[
        str, typer.Option(help="the stub scenario of the fresh stack (`beacon stub-mcp -h`)")
    ] = "default",
    target: Annotated[
        str | None, typer.Option(help="a deployment's chat URL, instead of a fresh stack")
    ] = None,
    mcp: Annotated[str | None, typer.Option(help="with --target: its stub MCP URL")] = None,
    llm: Annotated[str | None, typer.Option(help="with --target: its model server URL")] = None,
    token: Annotated[str | None, typer.Option(help="with --target: a bearer it accepts")] = None,
) -> None:
    """Run one probe (or --all) against a freshly started stack, or a deployment with --target."""
    from harness.probe_target import Deployment, ProbeReport
    from harness.probes import PROBES, missing_needs, run_probe
    from harness.stack import StackError, running_stack

    if list_:
        for probe in PROBES:
            typer.echo(probe)
        raise typer.Exit(0)
    names = list(PROBES) if all_ else [name] if name else []
    if not names or any(n not in PROBES for n in names):
        typer.echo(f"give a probe name ({', '.join(PROBES)}), --all or --list", err=True)
        raise typer.Exit(2)
    reports: list[ProbeReport] = []
    if target is not None:
        if token is None and mcp is None:
            typer.echo("probe --target needs --token TOKEN or --mcp STUB_MCP_URL", err=True)
            raise typer.Exit(2)
        deployment = Deployment(target.rstrip("/"), mcp, llm, token)
        lacking = {n: missing_needs(n, deployment) for n in names}
        if not all_ and lacking[names[0]]:
            typer.echo(
                f"probe {names[0]} needs {' '.join(lacking[names[0]])} with --target", err=True
            )
            raise typer.Exit(2)
        for n in names:
            if lacking[n]:
                typer.echo(f"probe {n}: not run against this target (needs {' '.join(lacking[n])})")
        reports = [run_probe(n, deployment) for n in names if not lacking[n]]
    else:
        try:
            with running_stack(scenario) as stack:
                reports = [run_probe(n, stack) for n in names]
        except StackError as exc:
            typer.echo(f"probe: {exc}", err=True)
            raise typer.Exit(1) from exc
    for report in reports:
        status = "ok" if report.ok else "FAILED"
        detail = report.failure or json.dumps(report.facts, ensure_ascii=False)
        typer.echo(f"probe {report.name}: {status} in {report.seconds}s: {detail}")
    raise typer.Exit(0 if all(r.ok for r in reports) else 1)


VERIFY_OUT = Path("reports/verify")


def _verify(
    target: Annotated[str, typer.Option(help="the chat server's origin (CHAT_URL)")],
    token: Annotated[str | None, typer.Option(help="a bearer the target accepts")] = None,
    mcp: Annotated[
        str | None,
        typer.Option(help="the stub MCP URL the target uses: dev tokens, scenarios, /dev/requests"),
    ] = None,
    other_token: Annotated[
        str | None, typer.Option(help="a second user's bearer (auth.other-user)")
    ] = None,
    expired_token: Annotated[
        str | None, typer.Option(help="an expired bearer signed by the target's issuer")
    ] = None,
    jwks: Annotated[
        str | None, typer.Option(help="the target's JWKS URL (auth.hs256-public-key)")
    ] = None,
    junit: Annotated[Path | None, typer.Option(help="JUnit XML path")] = None,
    json_: Annotated[Path | None, typer.Option("--json", help="checks.json path")] = None,
    html: Annotated[Path | None, typer.Option(help="self-contained HTML report path")] = None,
    out_dir: Annotated[Path, typer.Option(help="where unnamed outputs go")] = VERIFY_OUT,
    baseline: Annotated[
        Path | None, typer.Option(help="known failures (check or check::case per line, or JSON)")
    ] = None,
    check: Annotated[
        list[str] | None, typer.Option("--check", help="run only this check or group (repeat)")
    ] = None,
    question: Annotated[
        list[str] | None, typer.Option("--question", help="ask this instead of the defaults")
    ] = None,
    leeway: Annotated[float, typer.Option(help="the target's clock leeway, seconds")] = 30.0,
    concurrency: Annotated[int, typer.Option(help="turns made side by side")] = 4,
    # The old name, kept for scripts; `up`/`serve --workers` are processes, this never was.
    workers: Annotated[
        int | None, typer.Option(hidden=True, help="old name of --concurrency")
    ] = None,
    turn_deadline: Annotated[
        float,
        typer.Option(
            help="the most one turn's stream may take, seconds, from the request's start "
            "(heartbeats do not extend it)"
        ),
    ] = 90.0,
) -> None:
    """The honesty conformance suite against any frame-protocol chat server.

    Exit 0 every check passes or is baselined, 1 a failure or a stale baseline, 2 usage,
    3 a target that cannot be tested (unreachable, or answering no turn with a stream).
    """
    from harness.verify import (
        EXIT_FAILED,
        EXIT_TARGET,
        EXIT_USAGE,
        Status,
        VerifyError,
        VerifyOptions,
        VerifyTargetError,
        VerifyUsageError,
        summary_line,
        verify,
    )

    options = VerifyOptions(
        target=target,
        token=token,
        mcp=mcp,
        other_token=other_token,
        expired_token=expired_token,
        jwks=jwks,
        checks=tuple(check or ()),
        baseline=baseline,
        questions=tuple(question or ()),
        leeway_s=leeway,
        workers=concurrency if workers is None else workers,
        deadline_s=turn_deadline,
        progress=typer.echo,
    )
    try:
        verified = verify(options, out_dir, junit=junit, checks_json=json_, html_page=html)
    except VerifyError as exc:
        typer.echo(f"verify: {exc}", err=True)
        code = (
            EXIT_USAGE
            if isinstance(exc, VerifyUsageError)
            else EXIT_TARGET
            if isinstance(exc, VerifyTargetError)
            else EXIT_FAILED
        )
        raise typer.Exit(code) from exc
    report, written = verified.report, verified.written
    for result in report.of(Status.FAIL, Status.STALE):
        typer.echo(f"{result.status.value.upper()}: {result.id}: {result.message}")
    # Not-run checks, one line per reason (sixteen scenarios refused the same way are
    # one line with their names, not sixteen).
    not_run: dict[str, list[str]] = {}
    for result in report.of(Status.NOT_VERIFIED):
        not_run.setdefault(result.message, []).append(result.id)
    for reason, ids in not_run.items():
        shown = ", ".join(ids[:4]) + (f" and {len(ids) - 4} more" if len(ids) > 4 else "")
        typer.echo(f"not verified ({len(ids)}): {reason}: {shown}")
    for entry in report.unmatched_baseline:
        typer.echo(f"baseline entry names nothing in this run: {entry}")
    typer.echo(summary_line(report))
    typer.echo("reports: " + ", ".join(f"{k} {v}" for k, v in written.items()))
    raise typer.Exit(report.exit_code)


def _audit_upstream(
    mcp: Annotated[str | None, typer.Option(help="the upstream's streamable-HTTP MCP URL")] = None,
    token: Annotated[str | None, typer.Option(help="a bearer the upstream accepts")] = None,
    stdio: Annotated[
        str | None, typer.Option(help='instead of --mcp: a stdio server to start, "CMD ARGS"')
    ] = None,
    json_: Annotated[Path | None, typer.Option("--json", help="JSON report path")] = None,
    junit: Annotated[Path | None, typer.Option(help="JUnit XML path (one case per tool)")] = None,
    html: Annotated[Path | None, typer.Option(help="HTML report path")] = None,
    contract_out: Annotated[
        Path | None, typer.Option(help="write the declared upstream contract (YAML) here")
    ] = None,
    max_pages: Annotated[
        int, typer.Option(help="the most pages one cursor walk reads (a budget of calls)")
    ] = 10,
    fixed: Annotated[
        list[str] | None,
        typer.Option(
            help="NAME=VALUE: an argument the deployment fixes (a repository path), sent on "
            "every call and written to the contract's fixed_arguments; repeatable"
        ),
    ] = None,
) -> None:
    """How honestly an MCP server's list and search tools account for their results.

    Exit 0 no fail finding, 1 some, 2 usage, 3 unreachable or authorization refused.
    """
    from harness.audit_upstream import (
        EXIT_TARGET,
        EXIT_USAGE,
        AuditOptions,
        AuditUsageError,
        TargetUnavailable,
        run_audit,
    )
    from harness.audit_upstream.contract import contract_from, write_contract
    from harness.audit_upstream.report import write_html, write_json, write_junit

    pairs = [item.partition("=") for item in fixed or ()]
    if any(not name or not sep for name, sep, _ in pairs):
        typer.echo("audit-upstream: --fixed takes NAME=VALUE", err=True)
        raise typer.Exit(EXIT_USAGE)
    options = AuditOptions(
        mcp,
        token,
        stdio,
        max_pages,
        progress=typer.echo,
        fixed={name: value for name, _, value in pairs},
    )
    try:
        report = run_audit(options)
    except AuditUsageError as exc:
        typer.echo(f"audit-upstream: {exc}", err=True)
        raise typer.Exit(EXIT_USAGE) from exc
    except TargetUnavailable as exc:
        typer.echo(f"audit-upstream: {exc}", err=True)
        raise typer.Exit(EXIT_TARGET) from exc
    written = [str(write_json(report, json_))] if json_ else []
    written += [str(write_junit(report, junit))] if junit else []
    written += [str(write_html(report, html))] if html else []
    written += [str(write_contract(contract_from(report), contract_out))] if contract_out else []
    failing = sum(1 for t in report.tools if t.failed)
    typer.echo(
        f"audit-upstream: {len(report.tools)} tools, {failing} with a fail finding"
        + (f"; wrote {', '.join(written)}" if written else "")
    )
    raise typer.Exit(report.exit_code)


def register(app: typer.Typer) -> None:
    from harness.watch_cli import watch_command

    app.command("sweep")(_sweep)
    app.command("watch")(watch_command)
    app.add_typer(boundaries_app, name="boundaries")
    app.command("check-executed")(_check_executed)
    app.add_typer(audit_app, name="audit")
    app.command("probe")(_probe)
    app.command("verify")(_verify)
    app.command("audit-upstream")(_audit_upstream)
