"""A test group (``xdist_group``) runs on one worker under ``--dist loadgroup``, and
the reports name its tests as their files do (suites/conftest.py: pytest-xdist 3.8
writes its group suffix where pytest 9 no longer reads it, so every group was
silently spread over the workers).

So does an ungrouped module whose tests share a module-scoped fixture (its server
is then made once, not once per worker its tests land on). A scratch suite of
grouped and ungrouped tests, each writing which worker ran it,
is run by a real pytest with three xdist workers and the suite's own hooks.
"""

from __future__ import annotations

import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

# Each scratch module's tests write which worker ran them.
LOGGED = """
import os
from pathlib import Path

import pytest

OUT = Path(os.environ["GROUP_LOG"])


def _ran(name: str) -> None:
    with OUT.open("a") as log:
        log.write(f"{name} {os.environ['PYTEST_XDIST_WORKER']}\\n")
"""

SCRATCH = (
    LOGGED
    + """

@pytest.mark.xdist_group("together")
@pytest.mark.parametrize("n", range(6))
def test_grouped(n: int) -> None:
    _ran(f"grouped[{n}]")


@pytest.mark.xdist_group("together")
def test_grouped_summary() -> None:
    _ran("summary")


@pytest.mark.parametrize("n", range(6))
def test_free(n: int) -> None:
    _ran(f"free[{n}]")
"""
)

# Ungrouped tests sharing a module-scoped fixture (a module's own server, in the suite).
SHARED = (
    LOGGED
    + """

@pytest.fixture(scope="module")
def server() -> str:
    _ran("server-made")
    return "made"


@pytest.mark.parametrize("n", range(6))
def test_shared(server: str, n: int) -> None:
    _ran(f"shared[{n}]")
"""
)

# The scratch suite's conftest takes the suite's hooks, nothing else.
CONFTEST = (
    "from suites.conftest import (  # noqa: F401\n"
    "    pytest_collection_modifyitems, pytest_configure, pytest_runtest_logreport,\n"
    ")\n"
)


def test_a_groups_tests_run_on_one_worker_and_are_reported_by_their_own_names(
    tmp_path: Path,
) -> None:
    (tmp_path / "test_scratch.py").write_text(SCRATCH, encoding="utf-8")
    (tmp_path / "test_shared.py").write_text(SHARED, encoding="utf-8")
    (tmp_path / "conftest.py").write_text(CONFTEST, encoding="utf-8")
    log, junit = tmp_path / "ran.txt", tmp_path / "junit.xml"
    env = {**os.environ, "GROUP_LOG": str(log), "PYTHONPATH": str(REPO)}
    done = subprocess.run(
        [
            sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:cov",
            "-n", "3", "--dist", "loadgroup", f"--junitxml={junit}",
            "test_scratch.py", "test_shared.py",
        ],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    lines = [line.split() for line in log.read_text(encoding="utf-8").splitlines()]
    ran = dict(lines)
    assert len(ran) == 20
    grouped = {worker for name, worker in ran.items() if name.startswith(("grouped", "summary"))}
    assert len(grouped) == 1, f"the group ran on {sorted(grouped)}"
    # A module whose tests share a fixture runs on one worker, which makes it once.
    assert [name for name, _ in lines].count("server-made") == 1
    shared = {worker for name, worker in ran.items() if name.startswith(("shared", "server"))}
    assert len(shared) == 1, f"the module sharing a fixture ran on {sorted(shared)}"
    names = {case.get("name") for case in ET.parse(junit).iter("testcase")}
    assert "test_grouped_summary" in names and "test_grouped[5]" in names
    assert "test_shared[5]" in names
    assert not any("@" in str(name) for name in names), names
