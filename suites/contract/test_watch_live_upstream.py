"""``beacon sweep --upstream`` and ``beacon watch`` against the installed stub MCP, run as
a process and reached over streamable HTTP: green at the stub's cap, red naming the
sentinel boundary once the stub raises its cap while Beacon's sentinel stays."""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
import typer

from beacon.cli.up import beacon_command, free_port
from harness.audit_upstream.client import Target
from harness.live_sweep import run_live_sweep
from harness.stub_process import StubProcess, running_stub
from harness.watch import watch
from harness.watch_cli import target_of

ROOT = Path(__file__).resolve().parents[2]
SENTINEL_ROW = "mirror:sentinel-equals-upstream-cap"


@pytest.fixture(scope="module")
def green() -> Iterator[StubProcess]:
    with running_stub("mcp") as running:
        yield running


@pytest.fixture(scope="module")
def raised() -> Iterator[StubProcess]:
    with running_stub("mcp", env={"BEACON_STUB_ROW_CAP": "4000"}) as running:
        yield running


def beacon(*args: str) -> subprocess.CompletedProcess[str]:
    # The shipped sentinel, whatever the shell that runs the suite configures.
    env = {k: v for k, v in os.environ.items() if k != "BEACON_ROW_CAP_SENTINEL"}
    return subprocess.run(
        [*beacon_command(), *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def watch_once(stub: StubProcess, out: Path) -> subprocess.CompletedProcess[str]:
    return beacon(
        "watch", "--once", "--upstream", stub.mcp_url, "--token", stub.token(), "--out", str(out)
    )


def test_watch_once_at_the_stubs_own_cap_is_green_in_exit_record_and_metric(
    green: StubProcess, tmp_path: Path
) -> None:
    done = watch_once(green, tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    record = json.loads((tmp_path / "watch.json").read_text())
    assert record["last"]["ok"] is True and record["runs_total"] == {"ok": 1}
    metrics = (tmp_path / "watch.prom").read_text()
    assert f'beacon_watch_drift{{boundary="{SENTINEL_ROW}"}} 0.0' in metrics
    assert 'beacon_watch_runs_total{outcome="ok"} 1.0' in metrics


def test_watch_once_goes_red_naming_the_sentinel_when_the_stub_raises_its_cap(
    raised: StubProcess, tmp_path: Path
) -> None:
    done = watch_once(raised, tmp_path)
    assert done.returncode == 1, done.stdout + done.stderr
    drift = [line for line in done.stdout.splitlines() if line.startswith("drift: ")]
    assert len(drift) == 1 and drift[0].startswith(f"drift: {SENTINEL_ROW}: "), done.stdout
    assert "at /structuredContent/total" in drift[0] and "is 3000" in drift[0], drift[0]
    assert json.loads((tmp_path / "watch.json").read_text())["last"]["ok"] is False
    metrics = (tmp_path / "watch.prom").read_text()
    assert f'beacon_watch_drift{{boundary="{SENTINEL_ROW}"}} 1.0' in metrics
    assert "beacon_watch_ok 0.0" in metrics


def test_sweep_upstream_writes_fourteen_held_boundaries_to_its_record(
    green: StubProcess, tmp_path: Path
) -> None:
    done = beacon(
        "sweep", "--upstream", green.mcp_url, "--token", green.token(), "--out", str(tmp_path)
    )
    assert done.returncode == 0, done.stdout + done.stderr
    record = json.loads((tmp_path / "upstream.json").read_text())
    assert (record["ok"], record["count"], record["drift"]) == (True, 14, [])


def test_sweep_upstream_exits_one_with_the_sentinel_drift_on_a_raised_cap(
    raised: StubProcess, tmp_path: Path
) -> None:
    done = beacon(
        "sweep", "--upstream", raised.mcp_url, "--token", raised.token(), "--out", str(tmp_path)
    )
    assert done.returncode == 1
    assert f"drift: {SENTINEL_ROW}: " in done.stdout


def test_a_stub_whose_cursors_drift_is_red_on_the_cursor_boundary() -> None:
    with running_stub("mcp", scenario="cursor-drift") as drifting:
        record = run_live_sweep(ROOT, Target(url=drifting.mcp_url, token=drifting.token()))
    found = {b["id"]: b for b in record["boundaries"]}
    assert found["seam:stub-pages>stitcher"]["verdict"] == "drift"
    assert "overlapping_ids" in found["seam:stub-pages>stitcher"]["message"]


def test_a_bounded_watch_records_every_run_and_counts_them(
    green: StubProcess, tmp_path: Path
) -> None:
    seen: list[str] = []
    target = Target(url=green.mcp_url, token=green.token())
    code = watch(
        ROOT, target, out=tmp_path, every_s=0.0, times=2, report=lambda e: seen.append(e["outcome"])
    )
    record = json.loads((tmp_path / "watch.json").read_text())
    assert (code, seen, len(record["runs"]), record["runs_total"]) == (
        0,
        ["ok", "ok"],
        2,
        {"ok": 2},
    )


def test_an_unreachable_upstream_is_a_recorded_run_that_exits_three(tmp_path: Path) -> None:
    nowhere = Target(url=f"http://127.0.0.1:{free_port()}/mcp", timeout_s=5.0)
    code = watch(ROOT, nowhere, out=tmp_path, every_s=0.0, times=1, report=lambda _e: None)
    entry = json.loads((tmp_path / "watch.json").read_text())["last"]
    assert (code, entry["outcome"], entry["ok"]) == (3, "unreachable", False)
    assert "beacon_watch_ok 0.0" in (tmp_path / "watch.prom").read_text()


def test_an_interval_that_is_not_a_duration_is_refused_before_any_run() -> None:
    done = beacon("watch", "--every", "soon", "--upstream", "http://127.0.0.1:9/mcp")
    assert done.returncode == 2 and "not a duration" in done.stderr


def test_a_watch_without_a_url_anywhere_is_a_usage_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("BEACON_MCP_URL", raising=False)
    with pytest.raises(typer.Exit) as refused:
        target_of("watch", None, None)
    assert refused.value.exit_code == 2
