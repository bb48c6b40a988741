"""`beacon up --upstream-mcp URL --upstream-contract FILE` in front of a server nobody here
wrote: mcp-server-git (the test extra), a stdio server served over streamable HTTP by
harness/stdio_bridge.py, over a repository of 300 commits.

The contract is the audit's own output (`beacon audit-upstream --contract-out`),
completed as an operator would — a capability, the repository fixed — so the
audit's side of the contract feeds the chat server's side."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from beacon.cli.ask import run_turn
from beacon.cli.up import beacon_command
from beacon.wire.sse import SseEvent
from harness.chat_process import running_server
from harness.git_repo import make_repo
from harness.stack import StackError, running_stack

COMMITS = 300


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_repo(tmp_path_factory.mktemp("repo"), COMMITS)


@pytest.fixture(scope="module")
def upstream(repo: Path) -> Iterator[str]:
    server = shutil.which("mcp-server-git", path=str(Path(sys.executable).parent))
    assert server is not None, "mcp-server-git is in the test extra"
    bridge = [sys.executable, "-m", "harness.stdio_bridge", "--stdio", f"{server} -r {repo}"]
    with running_server(bridge) as origin:
        yield f"{origin}/mcp"


@pytest.fixture(scope="module")
def audited(upstream: str, repo: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    out = tmp_path_factory.mktemp("contract") / "git.yaml"
    audit = [*beacon_command(), "audit-upstream", "--mcp", upstream, "--contract-out", str(out)]
    done = subprocess.run(
        # The deployment's repository, fixed: the audit probes it and writes it down.
        [*audit, "--fixed", f"repo_path={repo}"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode in (0, 1), done.stdout + done.stderr
    document = yaml.safe_load(out.read_text())
    assert isinstance(document, dict)
    return document


def completed(audited: dict[str, Any], repo: Path, path: Path, **log: Any) -> Path:
    """The operator's part: who may call which tool (the audit wrote the repository)."""
    document = json.loads(json.dumps(audited))
    for name in ("git_log", "git_status"):
        assert document["tools"][name]["fixed_arguments"] == {"repo_path": str(repo)}
        document["tools"][name]["capability"] = "core"
    document["tools"]["git_log"].update(log)
    path.write_text(yaml.safe_dump(document, sort_keys=False))
    return path


def ask(chat: str, token: str, question: str) -> list[SseEvent]:
    return run_turn(chat, {"mode": "single", "message": question}, token=token)


def test_a_chat_turn_through_a_third_party_upstream_says_it_cannot_count_what_is_unaccounted(
    upstream: str, audited: dict[str, Any], repo: Path, tmp_path: Path
) -> None:
    # What the audit wrote down: git_log's items are in its text, with no accounting.
    log = audited["tools"]["git_log"]
    seen = (log["kind"], log["items"], log["total"], log["has_more"])
    assert seen == ("list", "text", None, None), log
    assert audited["tools"]["git_commit"]["kind"] == "skipped"
    contract = completed(audited, repo, tmp_path / "git.yaml")
    up_args = ("--upstream-mcp", upstream, "--upstream-contract", str(contract))
    with running_stack(up_args=up_args) as stack:
        frames = ask(stack.chat_url, stack.token(), "How many commits are in the log?")
    by_kind = [f.event for f in frames]
    assert by_kind[-1] == "done", by_kind
    # Nothing was denied: a tool this upstream does not have is no one's plan.
    assert "notice" not in by_kind, [f.json() for f in frames if f.event == "notice"]
    (call,) = [f.json() for f in frames if f.event == "tool_call"]
    assert call["tool"] == "git_log"
    (result,) = [f.json() for f in frames if f.event == "tool_result"]
    # The repository answered (the fixed repo_path reached it): ten commits, ungraded.
    assert (result["status"], result["grade"], result["emptiness"]) == (
        "ok",
        "UNKNOWN",
        "non_empty",
    )
    (references,) = [f.json() for f in frames if f.event == "references"]
    (count,) = references["counts"]
    assert (count["source"], count["grade"], count["total"]) == ("git_log", "UNKNOWN", None)
    answer = frames[-1].json()["answer"]
    # 10 of 300 came back and nothing said so: no number may be stated at all.
    assert not any(ch.isdigit() for ch in answer), answer
    assert "can't give a count" in answer, answer


def test_a_contract_cannot_conjure_accounting_or_items_the_upstream_does_not_send(
    upstream: str, audited: dict[str, Any], repo: Path, tmp_path: Path
) -> None:
    """Declared fields the results lack: a total nowhere is still no count, and items
    missing where the contract promised them read as the failure they are, not as zero."""
    contract = completed(
        audited,
        repo,
        tmp_path / "git.yaml",
        items="/structuredContent/commits",
        total="/structuredContent/total",
    )
    up_args = ("--upstream-mcp", upstream, "--upstream-contract", str(contract))
    with running_stack(up_args=up_args) as stack:
        frames = ask(stack.chat_url, stack.token(), "How many commits are in the log?")
    (result,) = [f.json() for f in frames if f.event == "tool_result"]
    assert (result["status"], result["grade"]) != ("ok", "EXACT"), result
    assert result["status"] != "ok" and result["emptiness"] != "empty", result
    answer = frames[-1].json()["answer"]
    assert not any(ch.isdigit() for ch in answer), answer


def test_a_contract_whose_upstream_drifted_refuses_the_start_in_one_line(
    upstream: str, audited: dict[str, Any], repo: Path, tmp_path: Path
) -> None:
    contract = completed(audited, repo, tmp_path / "git.yaml", schema_digest="0" * 64)
    up = [*beacon_command(), "up", "--upstream-mcp", upstream, "--upstream-contract"]
    done = subprocess.run(
        [*up, str(contract)], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 8, done.stdout + done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "schema changed since the contract: git_log" in lines[0], lines
    assert "--allow-drift" in lines[0] and "Traceback" not in done.stderr


def test_with_allow_drift_the_drifted_tool_is_disabled_and_said_so(
    upstream: str, audited: dict[str, Any], repo: Path, tmp_path: Path
) -> None:
    contract = completed(audited, repo, tmp_path / "git.yaml", schema_digest="0" * 64)
    up_args = ("--upstream-mcp", upstream, "--upstream-contract", str(contract), "--allow-drift")
    with running_stack(up_args=up_args) as stack:
        frames = ask(stack.chat_url, stack.token(), "How many commits are in the log?")
    # git_log is gone from the catalog and the table: never called, nothing counted.
    assert frames[-1].event == "done"
    assert not [f for f in frames if f.event in ("tool_call", "tool_result")]
    answer = frames[-1].json()["answer"]
    assert not any(ch.isdigit() for ch in answer), answer


def test_a_contract_naming_a_tool_the_upstream_lacks_refuses_the_start(
    upstream: str, audited: dict[str, Any], repo: Path, tmp_path: Path
) -> None:
    document = yaml.safe_load(completed(audited, repo, tmp_path / "c.yaml").read_text())
    document["tools"]["git_blame"] = {**document["tools"]["git_log"], "schema_digest": None}
    contract = tmp_path / "gone.yaml"
    contract.write_text(yaml.safe_dump(document))
    with (
        pytest.raises(StackError),
        running_stack(up_args=("--upstream-mcp", upstream, "--upstream-contract", str(contract))),
    ):
        pass
    up = [*beacon_command(), "up", "--upstream-mcp", upstream, "--upstream-contract"]
    done = subprocess.run([*up, str(contract)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 8 and "gone from tools/list: git_blame" in done.stderr
