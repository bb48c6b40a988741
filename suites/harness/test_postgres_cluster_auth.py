"""A cluster for one user: only its generated password gets in, over loopback TCP or its socket.

A real cluster (Debian's ``postgresql``), started once for the module by
``throwaway_cluster`` as every caller does, and one more by ``beacon postgres
start`` for the command's own promises. As root the server runs as
``postgres``; ``nobody`` stands in for any other local user.
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import psycopg
import pytest
from psycopg.conninfo import make_conninfo

from harness.postgres import PASSWORD_FILE, Cluster, bindir, state_directory, throwaway_cluster

pytestmark = pytest.mark.xdist_group("postgres-cluster")

ROOT = Path(__file__).resolve().parents[2]
STRANGER = "nobody"
NO_PASSFILE = "/nonexistent/pgpass"  # libpq reads no ~/.pgpass of ours


@pytest.fixture(scope="module")
def cluster() -> Iterator[Cluster]:
    with throwaway_cluster() as running:
        yield running


def _connect(cluster: Cluster, host: str, password: str | None) -> psycopg.Connection[object]:
    extra = {} if password is None else {"password": password}
    conninfo = make_conninfo(
        host=host,
        port=cluster.port,
        user="beacon",
        dbname="postgres",
        passfile=NO_PASSFILE,
        **extra,
    )
    return psycopg.connect(conninfo, connect_timeout=10)


@pytest.mark.parametrize(
    ("over", "password", "refusal"),
    [
        pytest.param("tcp", None, "no password supplied", id="tcp-without-password"),
        pytest.param("tcp", "not-it", "password authentication failed", id="tcp-wrong-password"),
        pytest.param("socket", None, "no password supplied", id="socket-without-password"),
        pytest.param("socket", "not-it", "authentication failed", id="socket-wrong-password"),
    ],
)
def test_a_connection_without_the_generated_password_is_refused(
    cluster: Cluster, over: str, password: str | None, refusal: str
) -> None:
    host = "127.0.0.1" if over == "tcp" else str(cluster.directory)
    with pytest.raises(psycopg.OperationalError, match=refusal):
        _connect(cluster, host, password).close()


def test_the_generated_url_connects_and_the_server_listens_on_loopback_only(
    cluster: Cluster,
) -> None:
    with psycopg.connect(cluster.url(), connect_timeout=10) as conn:
        listen = conn.execute("SHOW listen_addresses").fetchone()
        socket_mode = conn.execute("SHOW unix_socket_permissions").fetchone()
    assert listen == ("127.0.0.1",)
    assert socket_mode == ("0700",)
    with _connect(cluster, str(cluster.directory), cluster.password) as conn:
        assert conn.execute("SELECT 1").fetchone() == (1,)


def test_every_rule_the_server_reads_asks_for_a_password_and_none_admits_replication(
    cluster: Cluster,
) -> None:
    with psycopg.connect(cluster.url(), connect_timeout=10) as conn:
        rules = conn.execute(
            "SELECT type, database, address, auth_method, error FROM pg_hba_file_rules"
        ).fetchall()
    assert rules, "the server read no pg_hba.conf rule"
    for kind, databases, address, method, error in rules:
        assert error is None
        assert method == "scram-sha-256", (kind, databases, address, method)
        assert "replication" not in databases
        assert kind == "local" or address == "127.0.0.1"


def test_the_socket_directory_is_its_owners_alone_and_the_password_file_ours_outside_the_checkout(
    cluster: Cluster,
) -> None:
    directory = cluster.directory.stat()
    assert stat.S_IMODE(directory.st_mode) == 0o700
    sockets = list(cluster.directory.glob(".s.PGSQL.*[0-9]"))
    assert sockets and all(stat.S_IMODE(s.stat().st_mode) == 0o700 for s in sockets)
    password = (cluster.directory / PASSWORD_FILE).stat()
    assert stat.S_IMODE(password.st_mode) == 0o600
    assert password.st_uid == os.geteuid()
    assert (cluster.directory / PASSWORD_FILE).read_text().strip() == cluster.password
    for kept in (cluster.directory, state_directory()):
        assert ROOT not in kept.resolve().parents


@pytest.mark.skipif(os.geteuid() != 0, reason="acting as another local user needs root")
def test_another_local_user_can_neither_connect_nor_read_the_password(cluster: Cluster) -> None:
    def as_stranger(*command: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            ["runuser", "-u", STRANGER, "--", *command],
            capture_output=True, text=True, timeout=30, check=False, cwd="/",
            env={"PATH": os.environ["PATH"], "PGPASSFILE": NO_PASSFILE},
        )  # fmt: skip

    psql = str(bindir() / "psql")
    for host, refusal in ((str(cluster.directory), "Permission denied"),
                          ("127.0.0.1", "no password supplied")):  # fmt: skip
        tried = as_stranger(psql, "-w", "-h", host, "-p", str(cluster.port), "-U", "beacon",
                            "-d", "postgres", "-c", "SELECT 1")  # fmt: skip
        assert tried.returncode != 0 and refusal in tried.stderr, (host, tried.stderr)
    read = as_stranger("cat", str(cluster.directory / PASSWORD_FILE))
    assert read.returncode != 0 and "Permission denied" in read.stderr


def _beacon(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "beacon", "postgres", *args],
        capture_output=True, text=True, timeout=120, check=False, cwd=ROOT,
    )  # fmt: skip


def test_start_run_twice_prints_the_same_url_and_stop_says_what_it_stopped() -> None:
    directory = tempfile.mkdtemp(prefix="beacon-pg-cli-")  # one the server's user can reach
    try:
        first = _beacon("start", "--directory", directory)
        again = _beacon("start", "--directory", directory)
        assert first.returncode == 0, first.stderr
        assert first.stdout == again.stdout
        db = first.stdout.splitlines()[0].removeprefix("db: ")
        with psycopg.connect(db, connect_timeout=10) as conn:
            assert conn.execute("SELECT current_database()").fetchone() == ("beacon",)
        stopped = _beacon("stop", "--directory", directory)
        idle = _beacon("stop", "--directory", directory)
    finally:
        _beacon("stop", "--directory", directory)
        shutil.rmtree(directory, ignore_errors=True)
    port = urlsplit(db).port
    assert stopped.stdout == f"stopped: the PostgreSQL cluster in {directory} (port {port})\n"
    assert idle.stdout == f"nothing to stop: no PostgreSQL cluster runs in {directory}\n"


def test_start_refuses_a_directory_inside_a_checkout_in_one_line() -> None:
    checkout = Path(tempfile.mkdtemp(prefix="beacon-checkout-"))
    (checkout / ".git").mkdir()
    inside = checkout / ".beacon" / "postgres"
    try:
        refused = _beacon("start", "--directory", str(inside))
    finally:  # were it not refused, nothing may stay running
        _beacon("stop", "--directory", str(inside))
        shutil.rmtree(checkout, ignore_errors=True)
    assert refused.returncode == 1
    assert refused.stdout == ""
    assert refused.stderr == (
        f"beacon postgres start: {inside} is inside the checkout {checkout}: "
        "pass a --directory outside it, or leave it out\n"
    )


@pytest.mark.timeout(900)  # a pytest run of its own inside: minutes on a loaded machine
def test_the_suites_clusters_run_beside_a_cluster_from_beacon_postgres_start() -> None:
    """The README's PostgreSQL path must not break `make test`: with a user's cluster
    running, the suite's own PostgreSQL tests (throwaway clusters, the store on
    PostgreSQL) pass in a run of their own, and the checkout gains no file."""
    directory = tempfile.mkdtemp(prefix="beacon-pg-user-")
    before = _git_status()
    try:
        started = _beacon("start", "--directory", directory)
        assert started.returncode == 0, started.stderr
        suite = subprocess.run(
            [
                sys.executable,
                "-m",
                "pytest",
                "-q",
                "-p",
                "no:cacheprovider",
                "suites/unit/test_turn_store.py",
                "suites/harness/test_postgres_cluster_auth.py",
                "-k",
                "postgresql or (cluster and not beside_a_cluster) or password or socket",
            ],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=800,
            check=False,
        )
        still = _beacon("status", "--directory", directory)
    finally:
        _beacon("stop", "--directory", directory)
        shutil.rmtree(directory, ignore_errors=True)
    assert suite.returncode == 0, suite.stdout[-3000:] + suite.stderr[-2000:]
    assert " passed" in suite.stdout and "error" not in suite.stdout.splitlines()[-1]
    assert still.returncode == 0, "the user's cluster kept running through the suite"
    assert _git_status() == before


def _git_status() -> str:
    done = subprocess.run(
        ["git", "status", "--porcelain", "--ignored", "--", ".beacon"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout
