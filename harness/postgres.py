"""A PostgreSQL cluster for one user: tests, benches and local multi-process stacks.

Debian's ``postgresql`` package (``initdb``/``pg_ctl`` under
``/usr/lib/postgresql/<version>/bin``); ``make test`` installs it where missing.
PostgreSQL refuses to run as root: as root, the cluster belongs to the
``postgres`` user the package creates, and every server command runs as it.

Nobody else gets in: a random password per cluster (scram-sha-256; no ``trust``
line in ``pg_hba.conf``, and no replication line at all), TCP on 127.0.0.1 only,
and the Unix socket in the cluster's directory, which only the cluster's owner
may enter. ``Cluster.url`` carries the password; a second ``start`` reads it
back from the directory::

    D/            the cluster's owner, 0700: the socket, server.log
      data/       the cluster (initdb), the owner's
      password    the invoking user's, 0600 (root's, when root starts it)

``fsync=off``: a test cluster need not survive the machine's crash (a Beacon
process's crash, which the durability tests make, it survives either way).
"""

from __future__ import annotations

import os
import pwd
import secrets
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote

import psycopg

from beacon.cli.up import HOST, free_port

SUPERUSER = "beacon"
RUN_AS = "postgres"  # the system user Debian's package creates
START_TIMEOUT_S = 60
PASSWORD_FILE = "password"

# Every connection shows the password; nothing replicates, so no replication line.
HBA = (
    "# Written by harness/postgres.py: a password for every connection, never trust.\n"
    "local  all  all                 scram-sha-256\n"
    f"host   all  all  {HOST}/32  scram-sha-256\n"
)


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


def _run_as() -> pwd.struct_passwd | None:
    """The user the server runs as when it cannot run as us (root); None: as us."""
    if os.geteuid() != 0:
        return None
    try:
        return pwd.getpwnam(RUN_AS)
    except KeyError:
        raise PostgresUnavailable(
            f"there is no {RUN_AS!r} user to run the server as: "
            "apt-get install --no-install-recommends postgresql creates it"
        ) from None


def state_directory() -> Path:
    """The default cluster directory, outside any checkout: the state directory
    (``$XDG_STATE_HOME``, else ``~/.local/state``) of the user the server runs as
    (as root, ``postgres``'s: the server cannot enter root's home)."""
    owner = _run_as()
    if owner is not None:
        return Path(owner.pw_dir) / ".local" / "state" / "beacon" / "postgres"
    state = os.environ.get("XDG_STATE_HOME", "")
    base = Path(state) if Path(state).is_absolute() else Path.home() / ".local" / "state"
    return base / "beacon" / "postgres"


def _as_owner(command: list[str]) -> list[str]:
    if os.geteuid() != 0:
        return command
    return ["runuser", "-u", RUN_AS, "--", *command]


@dataclass(frozen=True, slots=True)
class Cluster:
    directory: Path
    port: int
    password: str = field(repr=False)

    def url(self, database: str = "postgres") -> str:
        secret = quote(self.password, safe="")
        return f"postgresql://{SUPERUSER}:{secret}@{HOST}:{self.port}/{database}"

    def create_database(self, name: str) -> str:
        """A new empty database; returns its URL."""
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)


def start(directory: Path, port: int = 0) -> Cluster:
    """Create (if new) and start a cluster in ``directory``; the running one if it runs."""
    bin_dir = bindir()
    data = directory / "data"
    _claim(directory)
    if (data / "PG_VERSION").exists():
        password = _stored_password(directory)
    else:
        password = secrets.token_urlsafe(32)
        _initdb(bin_dir, directory, password)
    running = running_port(data)
    if running is not None:
        return Cluster(directory, running, password)
    port = port or free_port()
    _run(
        [str(bin_dir / "pg_ctl"), "-D", str(data), "-o", f"-p {port}", "-l",
         str(directory / "server.log"), "-w", "-t", str(START_TIMEOUT_S), "start"],
    )  # fmt: skip
    return Cluster(directory, port, password)


def stop(directory: Path) -> int | None:
    """Stop the cluster in ``directory``; the port it listened on, None if none ran."""
    data = directory / "data"
    port = running_port(data)
    if port is not None:
        _run([str(bindir() / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop"])
    return port


def restart(directory: Path) -> None:
    """Restart the cluster in ``directory`` as an operator would (``-m fast``: every
    session is closed, the server is back on the same port): the fault tests' and
    the restart bench's PostgreSQL restart."""
    data = directory / "data"
    _run(
        [str(bindir() / "pg_ctl"), "-D", str(data), "-l", str(directory / "server.log"),
         "-m", "fast", "-w", "-t", str(START_TIMEOUT_S), "restart"],
    )  # fmt: skip


def _claim(directory: Path) -> None:
    """Make ``directory`` (or find a cluster's there) the server user's alone: mode 0700."""
    if (
        directory.is_dir()
        and any(directory.iterdir())
        and not (directory / "data").exists()
        and not (directory / PASSWORD_FILE).exists()
    ):  # never take over (chown, chmod) a directory that holds something else
        raise PostgresUnavailable(
            f"{directory} is not empty and holds no cluster: choose a new or empty directory"
        )
    owner = _run_as()
    created = [p for p in (directory, *directory.parents) if not p.exists()]
    reached = (created[-1] if created else directory).parent  # what must exist, reachable
    if owner is not None and not _succeeds(_as_owner(["test", "-x", str(reached)])):
        raise PostgresUnavailable(
            f"the {RUN_AS!r} user cannot enter {reached}: choose a directory it can reach "
            "(not inside a home only root may enter; e.g. under /tmp)"
        )
    directory.mkdir(parents=True, exist_ok=True)
    if owner is not None:
        for made in (directory, *created):
            os.chown(made, owner.pw_uid, owner.pw_gid)
    directory.chmod(0o700)


def _initdb(bin_dir: Path, directory: Path, password: str) -> None:
    data = directory / "data"
    _write_private(directory / PASSWORD_FILE, password, None)
    owner = _run_as()
    pwfile = directory / ".initdb-password"  # initdb reads it as the server's user
    _write_private(pwfile, password, owner)
    try:
        _run(
            [str(bin_dir / "initdb"), "-D", str(data), "-U", SUPERUSER,
             "--auth=scram-sha-256", f"--pwfile={pwfile}", "-E", "UTF8", "--locale=C",
             "--no-instructions", "-N"],
        )  # fmt: skip
    finally:
        pwfile.unlink(missing_ok=True)
    # Rewritten in place, the files keep initdb's owner and mode (0600).
    (data / "pg_hba.conf").write_text(HBA)
    socket_dir = str(directory).replace("'", "''")
    with (data / "postgresql.conf").open("a") as conf:
        conf.write(
            "\n# harness/postgres.py: loopback only; a socket only the owner may use.\n"
            f"listen_addresses = '{HOST}'\n"
            f"unix_socket_directories = '{socket_dir}'\n"
            "unix_socket_permissions = 0700\n"
            "password_encryption = 'scram-sha-256'\n"
            "fsync = off\nfull_page_writes = off\nmax_connections = 300\n"
        )


def _write_private(path: Path, secret: str, owner: pwd.struct_passwd | None) -> None:
    """``secret`` in a new 0600 file of ``owner`` (None: ours), never one found there."""
    path.unlink(missing_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    with os.fdopen(fd, "w") as file:
        if owner is not None:
            os.fchown(fd, owner.pw_uid, owner.pw_gid)
        file.write(secret + "\n")


def _stored_password(directory: Path) -> str:
    try:
        return (directory / PASSWORD_FILE).read_text().strip()
    except FileNotFoundError:
        raise PostgresUnavailable(
            f"the cluster in {directory} has no password file (it was made before "
            "clusters had passwords): stop it, delete the directory and start again"
        ) from None


def running_port(data: Path) -> int | None:
    """The port of the server running on ``data``; None when none runs (a stale pid file)."""
    pid_file = data / "postmaster.pid"
    if not pid_file.exists():
        return None
    if not _succeeds(_as_owner([str(bindir() / "pg_ctl"), "-D", str(data), "status"])):
        return None
    lines = pid_file.read_text().splitlines()  # line 4 of the pid file is its port
    if len(lines) > 3 and lines[3].strip().isdigit():
        return int(lines[3])
    return None


def turn_status(url: str, turn_id: str) -> str:
    """A turn's stored status as the database holds it now (what tests hold a
    server's answer against)."""
    with psycopg.connect(url) as conn:
        row = conn.execute("SELECT status FROM turns WHERE id = %s", (turn_id,)).fetchone()
    assert row is not None, f"no turn {turn_id} in the store"
    return str(row[0])


def _succeeds(command: list[str]) -> bool:
    return subprocess.run(command, capture_output=True, check=False).returncode == 0


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
