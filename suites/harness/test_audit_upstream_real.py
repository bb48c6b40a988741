"""A server nobody here wrote: mcp-server-git (PyPI, the test extra) over ``--stdio``,
against a repository of 300 commits made for the test (about 3 s)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from beacon.cli.up import beacon_command

COMMITS = 300


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("repo")
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.invalid",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.invalid",
    }
    subprocess.run(["git", "init", "-q", str(root)], check=True, env=env)
    # One fast-import stream instead of 300 processes (each commit follows the last).
    stream = "".join(
        f"commit refs/heads/main\ncommitter t <t@example.invalid> {1700000000 + i} +0000\n"
        f"data {len(f'commit {i}')}\ncommit {i}\n"
        + f"M 644 inline f.txt\ndata {len(str(i))}\n{i}\n\n"
        for i in range(COMMITS)
    )
    subprocess.run(
        ["git", "-C", str(root), "fast-import", "--quiet"],
        input=stream.encode(),
        check=True,
        env=env,
    )
    subprocess.run(["git", "-C", str(root), "checkout", "-q", "main"], check=True, env=env)
    return root


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
