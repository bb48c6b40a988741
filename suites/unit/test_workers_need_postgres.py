"""Several chat processes need the shared store: asked for on SQLite, `beacon serve`
and `beacon up` refuse in one line, before starting anything."""

from __future__ import annotations

import subprocess
from pathlib import Path

from harness.stack import beacon_executable


def _run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [beacon_executable(), *args], capture_output=True, text=True, timeout=60, env=env
    )


def test_serve_with_two_workers_on_sqlite_is_refused_in_one_line(tmp_path: Path) -> None:
    env = {
        "PATH": "/usr/bin:/bin",
        "BEACON_MCP_URL": "http://127.0.0.1:9/mcp",
        "BEACON_LLM_BASE_URL": "http://127.0.0.1:9/v1",
        "BEACON_JWKS": "http://127.0.0.1:9/jwks.json",
        "BEACON_DB": str(tmp_path / "beacon.sqlite3"),
        "BEACON_KEYS": "k1:" + "A" * 43 + "=",
    }
    done = _run("serve", "--port", "1", "--workers", "2", env=env)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "beacon serve: --workers 2 needs a PostgreSQL store (BEACON_DB / --db "
        "postgresql://…); SQLite is written by one process"
    ]
    assert not (tmp_path / "beacon.sqlite3").exists()  # nothing was started


def test_up_with_two_workers_and_no_database_is_refused_in_one_line() -> None:
    done = _run("up", "--workers", "2")
    assert done.returncode == 2
    assert "needs a PostgreSQL store" in done.stderr
    assert "Traceback" not in done.stderr and done.stdout == ""
