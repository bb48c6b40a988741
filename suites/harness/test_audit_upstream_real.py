"""A server nobody here wrote: mcp-server-git (PyPI, the test extra) over ``--stdio``,
against a repository of 300 commits made for the test (about 3 s)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from beacon.cli.up import beacon_command
from harness.git_repo import make_repo

COMMITS = 300


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_repo(tmp_path_factory.mktemp("repo"), COMMITS)


def test_a_real_stdio_server_is_audited_and_git_log_is_a_silent_full_page(
    repo: Path, tmp_path: Path
) -> None:
    server = shutil.which("mcp-server-git", path=str(Path(sys.executable).parent))
    assert server is not None, "mcp-server-git is in the test extra"
    out = tmp_path / "git.json"
    done = subprocess.run(
        [
            *beacon_command(),
            "audit-upstream",
            "--stdio",
            f"{server} --repository {repo}",
            "--json",
            str(out),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        cwd=repo,
    )
    assert done.returncode == 1, done.stdout + done.stderr
    report = json.loads(out.read_text())
    listed = {t["name"] for t in report["tools"]}
    assert {"git_log", "git_status", "git_commit"} <= listed
    assert all(line.split(":")[0] in listed for line in done.stdout.splitlines()[1:-1])
    entries = {t["name"]: t for t in report["tools"]}
    assert entries["git_commit"]["kind"] == "skipped"  # readOnlyHint false: never called
    (finding,) = entries["git_log"]["findings"]
    # 10 of 300 commits, nothing saying more exist: the max_count default, full.
    assert (finding["code"], finding["severity"]) == ("no-accounting", "fail")
    assert finding["evidence"]["items"] == 10
