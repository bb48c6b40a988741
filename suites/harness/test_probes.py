"""Every probe reproduces its case against the stack ``beacon up`` starts."""

from __future__ import annotations

import subprocess
import sys

import pytest

from harness.probe_target import Deployment, ProbeUnavailable
from harness.probes import PROBES, missing_needs, run_probe
from harness.probes_upstream import (
    citation_diff,
    explicit_project,
    jwks_token,
    sentinel_saturation,
    upstream_preflight,
)
from harness.stack import Stack


@pytest.mark.e2e
@pytest.mark.parametrize("name", list(PROBES))
def test_each_probe_reproduces_its_case(name: str, stack: Stack) -> None:
    report = run_probe(name, stack)
    assert report.ok, report.failure
    assert report.seconds < 60


def test_there_are_at_least_17_probes_and_the_cli_lists_each() -> None:
    assert len(PROBES) >= 17
    listed = subprocess.run(
        [sys.executable, "-m", "beacon", "probe", "--list"],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    ).stdout.split()
    assert listed == list(PROBES)


def test_an_unknown_probe_is_a_usage_error() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "beacon", "probe", "no-such-probe"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2 and "give a probe name" in done.stderr


def test_every_upstream_probe_is_unavailable_against_a_deployment_given_no_stub_upstream() -> None:
    bare = Deployment("http://127.0.0.1:9")
    upstream = (
        citation_diff,
        explicit_project,
        jwks_token,
        sentinel_saturation,
        upstream_preflight,
    )
    for probe in upstream:
        with pytest.raises(ProbeUnavailable, match="--mcp"):
            probe(bare)
    with pytest.raises(ProbeUnavailable, match="--mcp"):
        upstream_preflight(bare)
    assert missing_needs("jwks-token", bare) == ["--mcp"]
    assert not run_probe("explicit-project", bare).ok
