"""What each install can do: a plain ``pip install`` serves chat and names the extra a
harness or PostgreSQL command needs in one line; with ``[harness]`` (no test extra)
it sweeps, gates, audits and lists its probes.

A venv per flavour is built once per pyproject.toml and Python (cached under
reports/base-venv/, git-ignored; pip installs from the local wheel cache) and its
``beacon`` runs the README's commands over a committed copy of the tree.
"""

from __future__ import annotations

import base64
import fcntl
import hashlib
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from harness.installer import install_command, venv_command
from harness.workspace import ROOT, copy_tree, junit_for_everything

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(900)]

CACHE = ROOT / "reports" / "base-venv"
Run = Callable[..., subprocess.CompletedProcess[str]]


def _key() -> str:
    digest = hashlib.sha256((ROOT / "pyproject.toml").read_bytes())
    digest.update(f"{sys.version_info[:2]}|{ROOT}".encode())
    return digest.hexdigest()[:16]


def _env() -> dict[str, str]:
    drop = ("PYTEST", "PYTHONPATH", "VIRTUAL_ENV", "COV_CORE", "BEACON_")
    env = {k: v for k, v in os.environ.items() if not k.startswith(drop)}
    return {**env, "PIP_DISABLE_PIP_VERSION_CHECK": "1", "PIP_NO_INPUT": "1"}


def _build(venv: Path, extras: str) -> None:
    """`python -m venv` + `pip install -e .[extras]` (uv's where it is: harness/installer.py);
    complete once `.complete` is written."""
    subprocess.run(venv_command(venv), check=True, timeout=120)
    target = f"{ROOT}[{extras}]" if extras else str(ROOT)
    done = subprocess.run(
        [*install_command(venv), "-e", target],
        capture_output=True,
        text=True,
        timeout=600,
        env=_env(),
    )
    assert done.returncode == 0, done.stderr[-3000:]
    (venv / ".complete").touch()


def _venv(flavour: str, extras: str) -> Path:
    """The cached venv of one flavour, rebuilt when pyproject.toml or Python changes."""
    CACHE.mkdir(parents=True, exist_ok=True)
    venv = CACHE / f"{flavour}-{_key()}"
    with (CACHE / f".{flavour}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (venv / ".complete").exists():
            for stale in CACHE.glob(f"{flavour}-*"):
                shutil.rmtree(stale, ignore_errors=True)
            _build(venv, extras)
    return venv


def _runner(venv: Path, cwd: Path, env: dict[str, str] | None = None) -> Run:
    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(venv / "bin" / "beacon"), *args],
            cwd=cwd,
            capture_output=True,
            text=True,
            timeout=300,
            env={**_env(), **(env or {})},
            check=False,
        )

    return run


def _lacks(venv: Path, module: str) -> bool:
    probe = [str(venv / "bin" / "python"), "-c", f"import {module}"]
    return subprocess.run(probe, capture_output=True, timeout=60, check=False).returncode != 0


def _one_line_naming(done: subprocess.CompletedProcess[str], extra: str) -> None:
    assert done.returncode == 2, (done.stdout[-2000:], done.stderr[-2000:])
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr[-3000:]
    assert f"pip install 'beacon[{extra}]'" in lines[0], lines


def test_a_plain_install_answers_questions_and_names_the_extra_a_command_lacks(
    tmp_path: Path,
) -> None:
    venv = _venv("plain", "")
    for module in ("grimp", "build", "psycopg", "pytest"):
        assert _lacks(venv, module), f"a plain install must not hold {module}"
    run = _runner(venv, tmp_path)
    demo = _runner(venv, tmp_path, {"DEMO_ONCE": "1"})("demo")
    assert demo.returncode == 0, demo.stdout[-3000:] + demo.stderr[-3000:]
    assert "did not load" not in demo.stderr and "Traceback" not in demo.stderr
    _one_line_naming(run("sweep"), "harness")
    _one_line_naming(run("audit", "fan-in"), "harness")
    _one_line_naming(run("postgres", "start", "--directory", str(tmp_path / "pg")), "postgres")
    _one_line_naming(run("up", "--db", "postgresql://127.0.0.1:9/beacon"), "postgres")
    serve_env = {
        "BEACON_MCP_URL": "http://127.0.0.1:9/mcp",
        "BEACON_LLM_BASE_URL": "http://127.0.0.1:9/v1",
        "BEACON_JWKS": "http://127.0.0.1:9/jwks",
        "BEACON_DB": "postgresql://127.0.0.1:9/beacon",
        "BEACON_KEYS": "k1:" + base64.b64encode(bytes(32)).decode(),
    }
    serve = _runner(venv, tmp_path, serve_env)("serve", "--port", "0")
    _one_line_naming(serve, "postgres")
    assert not (tmp_path / "pg").exists(), "nothing is half-made"


def test_the_harness_extra_alone_sweeps_gates_audits_and_lists_probes(tmp_path: Path) -> None:
    venv = _venv("harness", "harness")
    assert _lacks(venv, "pytest"), "the harness venv must not hold the test extra"
    repo = copy_tree(tmp_path / "repo")
    run = _runner(venv, repo)

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
