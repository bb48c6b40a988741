"""A throwaway, committed copy of the working tree, and in-process sweep/gate runners.

Gate tests edit guarded files, remove boundaries and commit; they do it in a
copy made here, never in the real tree.
"""

from __future__ import annotations

import contextlib
import importlib
import io
import os
import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from xml.sax.saxutils import quoteattr

ROOT = Path(__file__).resolve().parents[1]
_SKIP = {
    ".venv",
    ".beacon",  # an older Beacon's cluster, left in the checkout (now under XDG state)
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


def pytest_in(
    cwd: Path, junit: Path, *args: str, env: dict[str, str] | None = None, bare: bool = False
) -> int:
    """Run pytest alone in a child (no cache, xdist or coverage plugins), writing
    ``junit``; its exit code, so a caller sees exactly what a runner reports. ``bare``:
    no installed plugin is loaded at all (a scratch file of plain tests needs none, and
    loading them all is most of the child's two seconds)."""
    if bare:
        env = {**(env if env is not None else os.environ), "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}
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


def junit_for_everything(repo: Path, extra_cases: Sequence[tuple[str, str]] = ()) -> Path:
    """A JUnit record (``reports/junit.xml``) in which every required test and group
    row passed, every test module ran (as in a real ``make test``: the fan-in audit
    reads it), and the ``(classname, name)`` cases given besides."""
    from boundaries import load_registry
    from harness.executed import requirements

    cases = []
    for req in requirements(load_registry(repo), repo):
        path, _, name = req.node.partition("::")
        classname = path.removesuffix(".py").replace("/", ".")
        names = [name] if req.min_cases == 1 else [f"{name}[r{i}]" for i in range(req.min_cases)]
        cases += [
            f"<testcase classname={quoteattr(classname)} name={quoteattr(n)} />" for n in names
        ]
    cases += [f"<testcase classname={quoteattr(c)} name={quoteattr(n)} />" for c, n in extra_cases]
    for test_file in sorted((repo / "suites").rglob("test_*.py")):
        classname = str(test_file.relative_to(repo)).removesuffix(".py").replace("/", ".")
        cases.append(f'<testcase classname={quoteattr(classname)} name="test_ran" />')
    junit = repo / "reports" / "junit.xml"
    junit.parent.mkdir(parents=True, exist_ok=True)
    junit.write_text(
        f'<testsuites><testsuite name="pytest">{"".join(cases)}</testsuite></testsuites>'
    )
    return junit
