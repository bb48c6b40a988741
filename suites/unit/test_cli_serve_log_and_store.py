"""The CLI's smaller rooms on their own: ``beacon serve``'s access log and start
line (``access_log.py``), ``beacon store prune``, ``reseal`` and ``keys`` (``store_cmd.py``) and the
``--since`` reading and store opening ``beacon report`` shares with it
(``report.py``). Over a real process: suites/e2e/test_cli.py."""

from __future__ import annotations

import socket
from datetime import UTC, datetime
from pathlib import Path

import httpx
import pytest
import typer
from fastapi import FastAPI
from fastapi.responses import JSONResponse
from typer.testing import CliRunner

from beacon.cli.access_log import AccessLog, listening_line
from beacon.cli.errors import Exit
from beacon.cli.main import app
from beacon.cli.report import parse_since
from beacon.cli.store_cmd import show_retention
from beacon.store.crypto import parse_keys
from beacon.store.frames import OpenTurn
from beacon.store.opening import open_store
from beacon.wire.headers import TURN_HEADER

NOW = 1_800_000_000.0  # a fixed instant: these readings are relative to it


async def test_the_access_line_names_method_path_status_time_and_turn_never_the_query(
    capsys: pytest.CaptureFixture[str],
) -> None:
    app = FastAPI()

    @app.post("/v1/turns")
    async def start() -> JSONResponse:
        return JSONResponse({}, status_code=201, headers={TURN_HEADER: "t_42"})

    transport = httpx.ASGITransport(app=AccessLog(app))
    async with httpx.AsyncClient(transport=transport, base_url="http://chat") as client:
        await client.post("/v1/turns?token=secret", content=b'{"message": "private"}')
    (line,) = capsys.readouterr().out.splitlines()
    method, path, status, ms, turn = line.split(" ")
    assert (method, path, status, turn) == ("POST", "/v1/turns", "201", "turn=t_42")
    assert ms.endswith("ms") and float(ms.removesuffix("ms")) >= 0
    assert "secret" not in line and "private" not in line


def test_the_start_line_brackets_an_ipv6_address() -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as four:
        four.bind(("127.0.0.1", 0))
        port = four.getsockname()[1]
        assert listening_line([four]) == f"listening on http://127.0.0.1:{port}"
    if not socket.has_ipv6:
        return
    with socket.socket(socket.AF_INET6, socket.SOCK_STREAM) as six:
        try:
            six.bind(("::1", 0))
        except OSError:
            return  # no IPv6 loopback on this machine
        port = six.getsockname()[1]
        assert listening_line([six]) == f"listening on http://[::1]:{port}"


@pytest.mark.parametrize(
    ("since", "epoch"),
    [
        pytest.param("90m", NOW - 5400, id="minutes-back"),
        pytest.param("2w", NOW - 14 * 86_400, id="weeks-back"),
        pytest.param("2026-11-01", datetime(2026, 11, 1, tzinfo=UTC).timestamp(), id="date"),
        pytest.param(
            "2026-11-01T12:00:00",
            datetime(2026, 11, 1, 12, tzinfo=UTC).timestamp(),
            id="naive-iso-is-utc",
        ),
        pytest.param(
            "2026-11-01T12:00:00+02:00",
            datetime(2026, 11, 1, 10, tzinfo=UTC).timestamp(),
            id="iso-with-offset",
        ),
    ],
)
def test_since_is_a_duration_back_a_utc_date_or_an_iso_time(since: str, epoch: float) -> None:
    assert parse_since(since, NOW) == epoch


@pytest.mark.parametrize("since", ["yesterday", "7 days", "3y", ""])
def test_a_since_that_is_none_of_those_is_refused_naming_the_forms(since: str) -> None:
    with pytest.raises(ValueError, match="neither a date"):
        parse_since(since, NOW)


def test_store_prune_dry_run_counts_every_table_and_deletes_nothing(tmp_path: Path) -> None:
    db = tmp_path / "beacon.sqlite3"
    open_store(str(db), parse_keys("k1:" + "A" * 43 + "=")).close()
    done = CliRunner().invoke(app, ["store", "prune", "--dry-run", "--db", str(db)])
    assert done.exit_code == 0, done.output
    rules, header, *rows = done.output.splitlines()
    assert rules.startswith("retention: ")
    assert header.split() == ["table", "aged", "would", "prune", "kept"]
    tables = {row.split()[0]: row.split()[1:] for row in rows}
    assert {"turns", "frames", "audit", "pages"} <= set(tables)
    assert all(counts == ["0", "0", "0"] for counts in tables.values())


def test_store_prune_without_a_store_named_is_a_usage_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("BEACON_DB", raising=False)
    done = CliRunner().invoke(app, ["store", "prune"])
    assert done.exit_code == Exit.USAGE
    assert "no store named: pass --db or set BEACON_DB" in done.output


@pytest.mark.parametrize("command", [["store", "prune"], ["report"]])
def test_a_store_in_a_folder_that_is_not_there_is_one_line_naming_the_fix(
    tmp_path: Path, command: list[str]
) -> None:
    missing = tmp_path / "no-such-folder" / "beacon.sqlite3"
    done = CliRunner().invoke(app, [*command, "--db", str(missing)])
    assert done.exit_code == 1
    (line,) = done.output.strip().splitlines()
    assert str(missing) in line and "create its folder" in line
    assert "unexpected" not in line and not missing.parent.exists()


def test_a_malformed_retention_setting_is_refused_before_a_server_starts(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("BEACON_RETAIN_TURNS_DAYS", "forever")
    with pytest.raises(typer.Exit) as refused:
        show_retention("serve")
    assert refused.value.exit_code == Exit.USAGE
    assert "BEACON_RETAIN_TURNS_DAYS" in capsys.readouterr().err


def test_store_reseal_refuses_a_ring_that_cannot_open_then_reseals_and_keys_counts_k2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = str(tmp_path / "beacon.sqlite3")
    k1, k2 = "k1:" + "A" * 43 + "=", "k2:" + "B" * 43 + "="
    old = open_store(db, parse_keys(k1))
    old.append_frames([("t1", 1, "start", b"s")], opens=[OpenTurn("t1", "u", None, "single")])
    old.close()
    monkeypatch.setenv("BEACON_KEYS", k2)
    blind = CliRunner().invoke(app, ["store", "reseal", "--db", db])
    assert blind.exit_code == Exit.FAILED
    assert "frames.body: 0 re-sealed, 0 already under the active key, 0 rewritten " in blind.output
    assert "1 unreadable (keys not in the ring: k1 ×1)" in blind.output
    monkeypatch.setenv("BEACON_KEYS", f"{k2},{k1}")
    done = CliRunner().invoke(app, ["store", "reseal", "--batch", "1", "--db", db])
    assert done.exit_code == 0, done.output
    assert "frames.body: 1 re-sealed, 0 already under the active key" in done.output
    keys = CliRunner().invoke(app, ["store", "keys", "--db", db])
    assert keys.exit_code == 0, keys.output
    assert keys.output.splitlines()[0] == "frames.body: k2 1"
    assert keys.output.splitlines()[-1] == "total: k2 1"
