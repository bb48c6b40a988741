"""Fixtures: a throwaway committed copy of the tree, and ``python -m beacon`` inside it."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from harness.workspace import copy_tree

Beacon = Callable[..., subprocess.CompletedProcess[str]]


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return copy_tree(tmp_path / "repo")


@pytest.fixture
def beacon(repo: Path) -> Beacon:
    """Runs ``python -m beacon ARGS`` inside the copy (its packages shadow the real tree's)."""

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST")}
        return subprocess.run(
            [sys.executable, "-m", "beacon", *args],
            cwd=repo,
            capture_output=True,
            text=True,
            timeout=180,
            env=env,
        )

    return run
