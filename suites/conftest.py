"""Shared fixtures: the stacks are started once per session, as real processes."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from harness.stack import Stack, running_stack


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
