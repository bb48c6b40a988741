"""Build once, promote the bytes: the artifact the gates carry from channel to channel.

``gate promote --to qa`` builds the wheel and the sdist once, from a copy of the
tree (setuptools writes beside its sources), keeps them under
``reports/gates/artifacts/<sha256>/`` and installs the wheel into a fresh virtual
environment in a folder outside the checkout: the stack, the probes and verify
then run against that installed ``beacon``, not the source tree. ``--to prod``
never builds: it takes the very file qa exercised, checks that its bytes still
have the digest the ledger recorded, and installs that.

The ledger (``reports/gates/ledger.jsonl``) is append-only JSON Lines, one line
per promotion: the wheel's and sdist's digests, the commit, the digests of the
evidence the gate decided on, the time. ``beacon gate history`` prints it.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from harness.installer import install_command, venv_command
from harness.workspace import copy_tree

ARTIFACT_DIR = "reports/gates/artifacts"
LEDGER = "reports/gates/ledger.jsonl"
BUILD_TIMEOUT_S = 600.0
INSTALL_TIMEOUT_S = 900.0


class ArtifactError(RuntimeError):
    """The artifact could not be built, kept or installed (the message says which)."""


@dataclass(frozen=True, slots=True)
class Artifact:
    wheel: Path
    sdist: Path | None
    digest: str  # the wheel's sha256: what a channel promotes
    sdist_digest: str | None

    def record(self) -> dict[str, Any]:
        return {
            "wheel": self.wheel.name,
            "digest": self.digest,
            "sdist": self.sdist.name if self.sdist else None,
            "sdist_digest": self.sdist_digest,
        }


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as stream:
        for block in iter(lambda: stream.read(1 << 16), b""):
            digest.update(block)
    return digest.hexdigest()


def _run(args: list[str], timeout: float, what: str, cwd: Path | None = None) -> None:
    done = subprocess.run(args, capture_output=True, text=True, timeout=timeout, cwd=cwd)
    if done.returncode != 0:
        tail = (done.stdout + done.stderr).strip().splitlines()[-5:]
        raise ArtifactError(f"{what} failed (exit {done.returncode}): " + " | ".join(tail))


def build(root: Path) -> Artifact:
    """The wheel and sdist of ``root``, built once from a copy and kept by digest."""
    with tempfile.TemporaryDirectory(prefix="beacon-build-") as scratch:
        source = copy_tree(Path(scratch) / "src")
        out = Path(scratch) / "dist"
        python = sys.executable
        _run(
            [python, "-m", "build", "--wheel", "--sdist", "--outdir", str(out), str(source)],
            BUILD_TIMEOUT_S,
            "building the wheel and sdist",
        )
        (wheel,) = out.glob("*.whl")
        sdists = list(out.glob("*.tar.gz"))
        digest = sha256(wheel)
        kept = root / ARTIFACT_DIR / digest
        kept.mkdir(parents=True, exist_ok=True)
        kept_wheel = kept / wheel.name
        kept_wheel.write_bytes(wheel.read_bytes())
        kept_sdist = None
        if sdists:
            kept_sdist = kept / sdists[0].name
            kept_sdist.write_bytes(sdists[0].read_bytes())
    return Artifact(kept_wheel, kept_sdist, digest, sha256(kept_sdist) if kept_sdist else None)


def kept(root: Path, record: dict[str, Any]) -> Artifact:
    """The artifact a ledger line names, its bytes checked against the recorded digest."""
    digest = str(record.get("digest"))
    wheel = root / ARTIFACT_DIR / digest / str(record.get("wheel"))
    if not wheel.is_file():
        raise ArtifactError(f"the wheel qa exercised is gone: {wheel}")
    now = sha256(wheel)
    if now != digest:
        raise ArtifactError(
            f"the wheel qa exercised has changed since (sha256 {now[:12]}…, the ledger "
            f"says {digest[:12]}…): refused, and never rebuilt"
        )
    return Artifact(wheel, None, digest, None)


ARTIFACT_EXTRAS = "harness"


@contextmanager
def installed(artifact: Artifact) -> Iterator[tuple[str, Path]]:
    """The wheel in a fresh virtual environment outside the checkout: its ``beacon``
    and a working folder that holds no source tree."""
    with tempfile.TemporaryDirectory(prefix="beacon-artifact-") as scratch:
        venv = Path(scratch) / "venv"
        _run(venv_command(venv), 120.0, "creating the clean venv")
        # With the harness extra: qa runs the probes and verify from this install.
        wheel = f"{artifact.wheel}[{ARTIFACT_EXTRAS}]"
        _run([*install_command(venv), wheel], INSTALL_TIMEOUT_S, "installing the wheel")
        work = Path(scratch) / "work"
        work.mkdir()
        yield str(venv / "bin" / "beacon"), work


def evidence_digests(root: Path, names: tuple[str, ...]) -> dict[str, str]:
    """The sha256 of each gate evidence file the decision rested on (those that exist)."""
    found = {}
    for name in names:
        path = root / "reports" / "gates" / name
        if path.is_file():
            found[name] = sha256(path)
    return found


def ledger(root: Path) -> list[dict[str, Any]]:
    path = root / LEDGER
    if not path.is_file():
        return []
    lines = [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [json.loads(line) for line in lines]


def append(root: Path, entry: dict[str, Any]) -> dict[str, Any]:
    """One more line: the ledger is only ever appended to."""
    line = {"at": datetime.now(UTC).isoformat(timespec="seconds"), **entry}
    path = root / LEDGER
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a", encoding="utf-8") as stream:
        stream.write(json.dumps(line, sort_keys=True) + "\n")
    return line
