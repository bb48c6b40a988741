"""Build once, promote the bytes: a real dev → qa → prod walk in a copy of the tree.

``--to qa`` builds a real wheel and sdist once, installs the wheel into a clean
venv outside the checkout, and runs the stack, the probes and verify against that
installed ``beacon``; ``--to prod`` installs the very wheel qa exercised (same
sha256, never rebuilt). A wheel whose bytes changed between qa and prod is refused.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from harness.artifact import ARTIFACT_DIR, ledger
from harness.workspace import gate_in, junit_for_everything, sweep_in

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(900)]
E2E_RAN = [("suites.e2e.test_cli", "test_e2e_ran")]


def _history(repo: Path) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "beacon", "gate", "history", "--root", str(repo)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_qa_builds_and_exercises_the_wheel_and_prod_promotes_those_very_bytes(
    repo: Path,
) -> None:
    assert sweep_in(repo)
    junit_for_everything(repo, E2E_RAN)
    code, out = gate_in(repo, "promote", "--from", "dev", "--to", "qa")
    assert code == 0, out
    (qa,) = ledger(repo)
    wheel = repo / ARTIFACT_DIR / qa["digest"] / qa["wheel"]
    assert wheel.is_file() and qa["sdist_digest"] and qa["to"] == "qa"
    assert qa["evidence"]["verify/checks.json"]  # verify ran against the installed artifact

    code, out = gate_in(repo, "promote", "--from", "qa", "--to", "prod")
    assert code == 0, out
    qa_again, prod = ledger(repo)
    assert qa_again == qa  # append-only
    assert (prod["to"], prod["digest"], prod["wheel"]) == ("prod", qa["digest"], qa["wheel"])
    assert len(list((repo / ARTIFACT_DIR).iterdir())) == 1  # built once, never rebuilt
    shown = _history(repo)
    assert shown.count(qa["digest"][:16]) == 2 and "qa → prod" in shown

    # The bytes qa exercised change: prod refuses them (and builds nothing).
    wheel.write_bytes(wheel.read_bytes() + b"\0")
    code, out = gate_in(repo, "promote", "--from", "qa", "--to", "prod")
    assert code == 1 and "has changed since" in out and "never rebuilt" in out
    assert len(ledger(repo)) == 2


def test_a_kept_wheel_is_taken_only_with_the_digest_the_ledger_recorded(tmp_path: Path) -> None:
    from harness.artifact import ArtifactError, kept, sha256

    folder = tmp_path / ARTIFACT_DIR / "d"
    folder.mkdir(parents=True)
    wheel = folder / "beacon-0.1.0-py3-none-any.whl"
    wheel.write_bytes(b"the bytes qa ran")
    digest = sha256(wheel)
    (folder.parent / digest).mkdir()
    (folder.parent / digest / wheel.name).write_bytes(wheel.read_bytes())
    found = kept(tmp_path, {"digest": digest, "wheel": wheel.name})
    assert found.digest == digest and found.wheel.read_bytes() == b"the bytes qa ran"
    (folder.parent / digest / wheel.name).write_bytes(b"other bytes")
    with pytest.raises(ArtifactError, match="has changed since"):
        kept(tmp_path, {"digest": digest, "wheel": wheel.name})
    with pytest.raises(ArtifactError, match="is gone"):
        kept(tmp_path, {"digest": "0" * 64, "wheel": wheel.name})
