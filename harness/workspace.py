"""A throwaway, committed copy of the working tree, and in-process sweep/gate runners.

Gate tests edit guarded files, remove boundaries and commit; they do it in a
copy made here, never in the real tree.
"""

from __future__ import annotations

import contextlib
import importlib
import io
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
_SKIP = {
    ".venv",
    ".git",
    "node_modules",
    "mutants",
    "reports",
    "__pycache__",
    ".mypy_cache",
    ".ruff_cache",
    ".pytest_cache",
    ".hypothesis",
    "beacon.egg-info",
    "build",
}
_GIT = [
    "git",
    "-c",
    "user.name=harness",
    "-c",
    "user.email=harness@localhost",
    "-c",
    "commit.gpgsign=false",
]


def git(root: Path, *args: str) -> str:
    done = subprocess.run(
        [*_GIT, *args], cwd=root, capture_output=True, text=True, timeout=60, check=True
    )
    return done.stdout.strip()


def copy_tree(dest: Path) -> Path:
    shutil.copytree(ROOT, dest, ignore=lambda _d, names: [n for n in names if n in _SKIP])
    git(dest, "init", "-q")
    git(dest, "add", "-A")
    git(dest, "commit", "-q", "-m", "copy")
    return dest


def sweep_in(repo: Path) -> bool:
    """The sweep, in-process, over the copy (its files; modules shared with the real tree)."""
    from harness.sweep import run_sweep, write_record

    record = run_sweep(repo)
    write_record(repo, record)
    return bool(record["ok"])


def gate_in(repo: Path, gate: str, *args: str) -> tuple[int, str]:
    """A gate's ``main`` in-process over the copy: (exit code, what it printed)."""
    main = importlib.import_module(f"gates.{gate}").main
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        code = main([*args, "--root", str(repo)])
    return int(code), out.getvalue()


def pytest_in(cwd: Path, junit: Path, *args: str, env: dict[str, str] | None = None) -> int:
    """Run pytest alone in a child (no cache, xdist or coverage plugins), writing
    ``junit``; its exit code, so a caller sees exactly what a runner reports."""
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-p",
            "no:xdist",
            "-p",
            "no:cov",
            f"--junitxml={junit}",
            *args,
        ],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    return done.returncode
