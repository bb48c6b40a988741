"""The contract sweep: run every boundary's check, record what was swept and when.

The record carries the commit *and* a content hash of every swept path:
without paths, a gate owning a path the sweep never opened would go green on
someone else's work; without hashes, an uncommitted edit after the sweep
would go unnoticed. A tree with uncommitted edits sweeps fresh as long as
nothing changed since.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
import time
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from boundaries import EXPECTED_COUNTS, KINDS, Registry, load_registry
from harness.checks import run_check
from harness.checks.base import CheckContext
from harness.fanin import audit
from harness.refs import CheckFailed

RECORD_FILE = "reports/sweep/latest.json"
RECORD_VERSION = 1
# The sweep's own machinery is swept too: a changed check is a changed verdict.
SWEEP_OWN_PATHS: tuple[str, ...] = (
    "boundaries",
    "harness/checks",
    "harness/producers.py",
    "harness/refs.py",
    "harness/sweep.py",
)
_SKIP_PARTS = {"__pycache__", ".mypy_cache", ".ruff_cache", ".pytest_cache"}


@dataclass(frozen=True, slots=True)
class Verdict:
    id: str
    kind: str
    file: str
    verdict: str  # pass | fail | error
    field: str | None
    message: str | None
    seconds: float


def git_commit(root: Path) -> str:
    try:
        done = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True, timeout=10
        )
    except (OSError, subprocess.TimeoutExpired):
        return "none"
    return done.stdout.strip() if done.returncode == 0 and done.stdout.strip() else "none"


def _files(path: Path) -> list[Path]:
    if path.is_file():
        return [path]
    return sorted(p for p in path.rglob("*") if p.is_file() and not (_SKIP_PARTS & set(p.parts)))


def content_hash(root: Path, rel: str) -> str | None:
    """sha256 of a file, or of a directory's (relative name, file hash) list; None if absent."""
    path = root / rel
    if not path.exists():
        return None
    if path.is_file():
        return hashlib.sha256(path.read_bytes()).hexdigest()
    digest = hashlib.sha256()
    for file in _files(path):
        digest.update(file.relative_to(path).as_posix().encode() + b"\0")
        digest.update(hashlib.sha256(file.read_bytes()).digest())
    return digest.hexdigest()


def swept_paths(registry: Registry) -> list[str]:
    paths = set(SWEEP_OWN_PATHS)
    for boundary in registry.boundaries:
        paths.update(boundary.paths)
    return sorted(paths)


def _judge(root: Path, boundary_id: str, kind: str, file: str, check: dict[str, Any]) -> Verdict:
    started = time.perf_counter()
    try:
        run_check(check, CheckContext(root, boundary_id))
        outcome: tuple[str, str | None, str | None] = ("pass", None, None)
    except CheckFailed as exc:
        outcome = ("fail", exc.field, exc.message)
    except Exception as exc:  # a check that crashed is a failed boundary, never a crashed sweep
        outcome = ("error", "check", f"{type(exc).__name__}: {exc}"[:500])
    seconds = round(time.perf_counter() - started, 4)
    return Verdict(boundary_id, kind, file, *outcome, seconds)


def run_sweep(root: Path) -> dict[str, Any]:
    """Sweep the registry under ``root``; returns the record (not yet written)."""
    root = root.resolve()
    started = time.perf_counter()
    registry = load_registry(root)
    # Sweep the tree we were pointed at: its modules shadow any other on the path.
    saved = list(sys.path)
    sys.path.insert(0, str(root))
    try:
        verdicts = [_judge(root, b.id, b.kind, b.file, b.check) for b in registry.boundaries]
        fan_in = fan_in_findings(root)
    finally:
        sys.path[:] = saved
    by_kind = {kind: len(items) for kind, items in registry.by_kind().items()}
    problems = [{"file": p.file, "field": p.field, "message": p.message} for p in registry.problems]
    short = [k for k in KINDS if by_kind.get(k, 0) < EXPECTED_COUNTS[k]]
    problems += [
        {
            "file": "boundaries/registry",
            "field": kind,
            "message": f"{by_kind.get(kind, 0)} {kind} boundaries, the floor is "
            f"{EXPECTED_COUNTS[kind]}",
        }
        for kind in short
    ]
    paths = swept_paths(registry)
    return {
        "version": RECORD_VERSION,
        "commit": git_commit(root),
        "swept_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "wall_seconds": round(time.perf_counter() - started, 3),
        "count": len(registry.boundaries),
        "by_kind": by_kind,
        "ok": not problems and all(v.verdict == "pass" for v in verdicts),
        "problems": problems,
        "paths": {rel: content_hash(root, rel) for rel in paths},
        "boundaries": [asdict(v) for v in sorted(verdicts, key=lambda v: v.id)],
        "fan_in": fan_in,
    }


def fan_in_findings(root: Path) -> dict[str, Any]:
    """The fan-in audit's findings per gate, by static imports (the sweep reads no JUnit,
    so it stays deterministic; the gates re-run the audit against the run's JUnit)."""
    try:
        gates = [gate.finding() for gate in audit(root)]
    except Exception as exc:  # an audit that cannot run is itself a finding
        return {"evidence": "static imports", "error": f"{type(exc).__name__}: {exc}"[:500]}
    return {"evidence": "static imports", "gates": gates}


def write_record(root: Path, record: dict[str, Any]) -> Path:
    path = root / RECORD_FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(record, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    return path


def read_record(root: Path) -> dict[str, Any] | None:
    path = root / RECORD_FILE
    try:
        loaded = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return loaded if isinstance(loaded, dict) else None


@dataclass(frozen=True, slots=True)
class Freshness:
    fresh: bool
    reasons: tuple[str, ...]
    record: dict[str, Any] | None


def freshness(root: Path) -> Freshness:
    """Stale = no record, another commit, or a guarded path changed (or unswept) since."""
    record = read_record(root)
    if record is None or record.get("version") != RECORD_VERSION:
        return Freshness(False, (f"no sweep record at {RECORD_FILE}",), None)
    reasons: list[str] = []
    head = git_commit(root)
    if record.get("commit") != head:
        reasons.append(f"swept at commit {record.get('commit')}, the tree is at {head}")
    recorded = record.get("paths") if isinstance(record.get("paths"), dict) else {}
    assert isinstance(recorded, dict)
    current = swept_paths(load_registry(root))
    for rel in current:
        if rel not in recorded:
            reasons.append(f"{rel} is guarded now but was not swept")
        elif content_hash(root, rel) != recorded[rel]:
            reasons.append(f"{rel} changed since the sweep")
    return Freshness(not reasons, tuple(reasons), record)
