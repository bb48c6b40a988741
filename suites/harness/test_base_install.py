"""The harness is part of the product: a plain ``pip install`` (no test extra) sweeps,
gates, audits and lists its probes.

A venv with the base dependencies only is built once per pyproject.toml and Python
(cached under reports/base-venv/, git-ignored; pip installs from the local wheel cache)
and its ``beacon`` runs the README's harness commands over a committed copy of the tree.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from harness.workspace import ROOT, copy_tree, junit_for_everything

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(900)]

CACHE = ROOT / "reports" / "base-venv"


def _key() -> str:
    digest = hashlib.sha256((ROOT / "pyproject.toml").read_bytes())
    digest.update(f"{sys.version_info[:2]}|{ROOT}".encode())
    return digest.hexdigest()[:16]


def _env() -> dict[str, str]:
    drop = ("PYTEST", "PYTHONPATH", "VIRTUAL_ENV", "COV_CORE")
    env = {k: v for k, v in os.environ.items() if not k.startswith(drop)}
    return {**env, "PIP_DISABLE_PIP_VERSION_CHECK": "1", "PIP_NO_INPUT": "1"}


def _build(venv: Path) -> None:
    """`python -m venv` + `pip install -e .`; complete only once `.complete` is written."""
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    done = subprocess.run(
        [str(venv / "bin" / "python"), "-m", "pip", "install", "-q", "-e", str(ROOT)],
        capture_output=True,
        text=True,
        timeout=600,
        env=_env(),
    )
    assert done.returncode == 0, done.stderr[-3000:]
    (venv / ".complete").touch()


@pytest.fixture(scope="module")
def base_venv() -> Iterator[Path]:
    """A venv with `pip install -e .` and nothing else, built once per pyproject.toml."""
    CACHE.mkdir(parents=True, exist_ok=True)
    venv = CACHE / _key()
    with (CACHE / ".lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (venv / ".complete").exists():
            shutil.rmtree(venv, ignore_errors=True)
            for stale in CACHE.iterdir():
                if stale.is_dir():
                    shutil.rmtree(stale, ignore_errors=True)
            _build(venv)
    yield venv


def test_a_plain_install_sweeps_gates_audits_and_lists_probes(
    base_venv: Path, tmp_path: Path
) -> None:
    python = base_venv / "bin" / "python"
    beacon = str(base_venv / "bin" / "beacon")
    no_extras = subprocess.run(
        [str(python), "-c", "import pytest"], capture_output=True, timeout=60, check=False
    )
    assert no_extras.returncode != 0, "the base venv must not hold the test extra"
    repo = copy_tree(tmp_path / "repo")

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [beacon, *args],
            cwd=repo,
            capture_output=True,
            text=True,
            timeout=300,
            env=_env(),
            check=False,
        )

    sweep = run("sweep")
    assert sweep.returncode == 0, sweep.stdout[-3000:] + sweep.stderr[-3000:]
    assert "No module named" not in sweep.stdout + sweep.stderr
    junit = junit_for_everything(repo)
    observe = run("gate", "observe", "--junit", str(junit))
    assert observe.returncode == 0, observe.stdout[-3000:] + observe.stderr[-3000:]
    for args in (("boundaries", "list", "--by-kind"), ("probe", "--list"), ("audit", "fan-in")):
        done = run(*args)
        assert done.returncode == 0, (args, done.stdout[-2000:], done.stderr[-2000:])
        assert "Traceback" not in done.stderr and "did not load" not in done.stderr, args
