"""A throwaway PostgreSQL cluster for tests, benches and local multi-process stacks.

Debian's ``postgresql`` package (``initdb``/``pg_ctl`` under
``/usr/lib/postgresql/<version>/bin``); ``make test`` installs it where missing.
The cluster lives in a directory of its own, listens on loopback only (a free
port, and a Unix socket in the same directory), trusts local connections, and
is stopped and deleted with its directory. PostgreSQL refuses to run as root:
as root, every command runs as the ``postgres`` user the package creates.

``fsync=off``: a test cluster need not survive the machine's crash (a Beacon
process's crash, which the durability tests make, it survives either way).
"""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import psycopg

from beacon.cli.up import HOST, free_port

SUPERUSER = "beacon"
RUN_AS = "postgres"  # the system user Debian's package creates
START_TIMEOUT_S = 60


class PostgresUnavailable(RuntimeError):
    """PostgreSQL's server programs are not installed, or the cluster would not start."""


def bindir() -> Path:
    """Where ``initdb`` and ``pg_ctl`` are: the newest version Debian installed."""
    found = sorted(
        Path("/usr/lib/postgresql").glob("*/bin/initdb"),
        key=lambda p: int(p.parent.parent.name) if p.parent.parent.name.isdigit() else 0,
    )
    if found:
        return found[-1].parent
    on_path = shutil.which("initdb")
    if on_path:
        return Path(on_path).resolve().parent
    raise PostgresUnavailable(
        "PostgreSQL's server is not installed: "
        "apt-get install --no-install-recommends postgresql (make test does this)"
    )


def _as_owner(command: list[str]) -> list[str]:
    if os.geteuid() != 0:
        return command
    return ["runuser", "-u", RUN_AS, "--", *command]


@dataclass(frozen=True, slots=True)
class Cluster:
    directory: Path
    port: int

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://{SUPERUSER}@{HOST}:{self.port}/{database}"

    def create_database(self, name: str) -> str:
        """A new empty database; returns its URL."""
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)


def start(directory: Path, port: int = 0) -> Cluster:
    """Create (if new) and start a cluster in ``directory``."""
    bin_dir = bindir()
    directory.mkdir(parents=True, exist_ok=True)
    data = directory / "data"
    if os.geteuid() == 0:
        owner = pwd.getpwnam(RUN_AS)
        os.chown(directory, owner.pw_uid, owner.pw_gid)
    if not (data / "PG_VERSION").exists():
        _run(
            [str(bin_dir / "initdb"), "-D", str(data), "-U", SUPERUSER, "--auth=trust",
             "-E", "UTF8", "--locale=C", "--no-instructions", "-N"],
        )  # fmt: skip
    pid_file = data / "postmaster.pid"
    if pid_file.exists():  # already running: line 4 of the pid file is its port
        lines = pid_file.read_text().splitlines()
        if len(lines) > 3 and lines[3].strip().isdigit():
            return Cluster(directory, int(lines[3]))
    port = port or free_port()
    options = (
        f"-p {port} -k {directory} -c listen_addresses={HOST} -c fsync=off "
        "-c full_page_writes=off -c max_connections=300"
    )
    _run(
        [str(bin_dir / "pg_ctl"), "-D", str(data), "-o", options, "-l",
         str(directory / "server.log"), "-w", "-t", str(START_TIMEOUT_S), "start"],
    )  # fmt: skip
    return Cluster(directory, port)


def stop(directory: Path) -> None:
    data = directory / "data"
    if (data / "postmaster.pid").exists():
        _run([str(bindir() / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop"])


def _run(command: list[str]) -> None:
    done = subprocess.run(_as_owner(command), capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise PostgresUnavailable(
            f"{Path(command[0]).name} failed ({done.returncode}): "
            f"{(done.stderr or done.stdout).strip()[-500:]}"
        )


@contextmanager
def throwaway_cluster() -> Iterator[Cluster]:
    """A cluster in a fresh temporary directory, stopped and deleted afterwards."""
    directory = Path(tempfile.mkdtemp(prefix="beacon-pg-"))
    try:
        cluster = start(directory)
        try:
            yield cluster
        finally:
            stop(directory)
    finally:
        shutil.rmtree(directory, ignore_errors=True)
