"""Shared fixtures: the stacks are started once per session, as real processes."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, settings

from harness.postgres import Cluster, throwaway_cluster
from harness.stack import Stack, running_stack

_databases = itertools.count(1)

# No property test is judged by how long an example takes: on a loaded 2-core run
# hypothesis's 200 ms deadline and its too-slow check failed examples that pass.
settings.register_profile("beacon", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("beacon")


@pytest.fixture(scope="session")
def stack() -> Iterator[Stack]:
    with running_stack("default") as running:
        yield running


@pytest.fixture(scope="session")
def legacy_stack() -> Iterator[Stack]:
    with running_stack("legacy-upstream") as running:
        yield running


@pytest.fixture(scope="session")
def token(stack: Stack) -> str:
    return stack.token()


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[Cluster]:
    """One throwaway PostgreSQL cluster per test process, started on first use."""
    with throwaway_cluster() as cluster:
        yield cluster


@pytest.fixture
def pg_url(pg_cluster: Cluster) -> str:
    """A fresh, empty database in the throwaway cluster."""
    return pg_cluster.create_database(f"t{next(_databases)}")
