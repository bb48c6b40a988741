"""A git repository of a known number of commits, for tests that put a real third-party
MCP server (mcp-server-git) in front of data whose true size is known."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

_IDENTITY = {
    "GIT_AUTHOR_NAME": "t",
    "GIT_AUTHOR_EMAIL": "t@example.invalid",
    "GIT_COMMITTER_NAME": "t",
    "GIT_COMMITTER_EMAIL": "t@example.invalid",
}


def make_repo(root: Path, commits: int) -> Path:
    """``root`` as a repository with ``commits`` commits on ``main`` (about 0.1 s for 300:
    one fast-import stream, not a process per commit)."""
    env = {**os.environ, **_IDENTITY}
    subprocess.run(["git", "init", "-q", str(root)], check=True, env=env)
    stream = "".join(
        f"commit refs/heads/main\ncommitter t <t@example.invalid> {1700000000 + i} +0000\n"
        f"data {len(f'commit {i}')}\ncommit {i}\n"
        + f"M 644 inline f.txt\ndata {len(str(i))}\n{i}\n\n"
        for i in range(commits)
    )
    subprocess.run(
        ["git", "-C", str(root), "fast-import", "--quiet"],
        input=stream.encode(),
        check=True,
        env=env,
    )
    subprocess.run(["git", "-C", str(root), "checkout", "-q", "main"], check=True, env=env)
    return root
