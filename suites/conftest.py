"""Shared fixtures: the stacks are started once per session, as real processes."""

from __future__ import annotations

import itertools
import zlib
from collections.abc import Generator, Iterator
from contextlib import ExitStack
from typing import TYPE_CHECKING

import pytest
from _pytest.nodeid import NodeId
from hypothesis import HealthCheck, settings

from harness.kept_tls import keep_default_tls
from harness.postgres import Cluster, throwaway_cluster
from harness.stack import Stack, printed_tails, running_stack

if TYPE_CHECKING:
    from playwright.sync_api import Browser

_databases = itertools.count(1)

# No property test is judged by how long an example takes: on a loaded 2-core run
# hypothesis's 200 ms deadline and its too-slow check failed examples that pass.
settings.register_profile("beacon", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("beacon")

# A worker's tests and helpers make a client per request (`httpx.get`, `httpx.post`):
# one verifying TLS context kept instead of one built each time (harness/kept_tls.py).
keep_default_tls()


# pytest-xdist's `--dist loadgroup` schedules by a "@group" suffix it writes into each
# grouped test's node id, but it writes `item._nodeid`, which pytest 9 no longer reads
# (the id is `item._id`): every `xdist_group` was silently ignored, and a group's tests
# ran on several workers — a module's summary test saw none of the examples its
# properties ran on another worker, and each worker started its own PostgreSQL cluster
# and its own copy of a module's stack. Until xdist writes it where pytest 9 reads it,
# the workers write the suffix here, and the controller takes it off every report, so
# JUnit, the durations and the terminal name each test as its file does.
def _groups(item: pytest.Item) -> list[str]:
    names = {
        str(mark.args[0] if mark.args else mark.kwargs.get("name", "default"))
        for mark in item.iter_markers("xdist_group")
    }
    return sorted(names)


def _grouped(nodeid: str) -> bool:
    # xdist's own test: an "@" after any parameter bracket is the group's.
    return nodeid.rfind("@") > nodeid.rfind("]")


# The browser tests run back to back in a few groups, so that a worker's Chromium is
# launched once for a group rather than once for each stretch of them (see _Chromium).
CHROMIUM_GROUPS = 3


def _uses_browser(item: pytest.Item) -> bool:
    return "browser" in getattr(item, "fixturenames", ())


def _chromium_group(item: pytest.Item) -> str:
    module = item.nodeid.partition("::")[0]
    return f"chromium-{zlib.crc32(module.encode()) % CHROMIUM_GROUPS}"


# A fixture shared by a module's (or a class's) tests is made once per worker that runs
# one of them: under `--dist loadgroup` an ungrouped test is scheduled alone, so a
# module's stack or server was started on every worker its tests landed on (a run
# started ~15 such copies, 2–5 s of CPU each). Such a module runs on one worker.
_SHARED_SCOPES = frozenset({"module", "class", "package"})


def _shares_a_fixture(item: pytest.Item) -> bool:
    info = getattr(item, "_fixtureinfo", None)
    if info is None:
        return False
    return any(defs and defs[-1].scope in _SHARED_SCOPES for defs in info.name2fixturedefs.values())


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if not getattr(config.option, "loadgroup", False):
        return  # not an xdist worker under --dist loadgroup
    for item in items:
        if not _groups(item):
            if _uses_browser(item):
                item.add_marker(pytest.mark.xdist_group(_chromium_group(item)))
            elif _shares_a_fixture(item):
                module = item.nodeid.partition("::")[0]
                item.add_marker(pytest.mark.xdist_group(f"module-{module}"))
        groups = _groups(item)
        if groups and not _grouped(item.nodeid):
            item._id = NodeId.parse(f"{item.nodeid}@{'_'.join(groups)}")


_WORKER = {"is": False}


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    report = yield
    if report.failed:
        report.sections.extend(printed_tails(getattr(item, "funcargs", {})))
    return report


def pytest_configure(config: pytest.Config) -> None:
    _WORKER["is"] = hasattr(config, "workerinput")


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    # In the controller only: a worker checks each report's id against its item's.
    if not _WORKER["is"] and _grouped(report.nodeid):
        report.nodeid = report.nodeid.rpartition("@")[0]


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


class _Chromium:
    """One Chromium for a test process's browser tests while they run back to back,
    closed before any other test runs. A launch (Playwright's Node driver and
    Chromium's own processes) is ~3 s of CPU, and one per module was ~35 a run. Not
    simply session-scoped: between its calls Playwright's sync API leaves its event
    loop marked running in the thread, and a later test's own ``asyncio.run`` fails
    under it. Every test still gets fresh contexts (no cookie, storage or cache
    crosses tests)."""

    def __init__(self) -> None:
        self._open = ExitStack()
        self._browser: Browser | None = None

    def get(self) -> Browser:
        if self._browser is None:
            from harness.browser import chromium  # Playwright loads only where used

            self._browser = self._open.enter_context(chromium())
        return self._browser

    def close(self) -> None:
        self._browser = None
        self._open.close()  # an ExitStack is empty again after close, ready for a next launch


_CHROMIUM = _Chromium()


@pytest.fixture
def browser() -> Browser:
    return _CHROMIUM.get()


def pytest_runtest_setup(item: pytest.Item) -> None:
    if not _uses_browser(item):
        _CHROMIUM.close()


def pytest_sessionfinish(session: pytest.Session) -> None:
    _CHROMIUM.close()


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[Cluster]:
    """One throwaway PostgreSQL cluster per test process, started on first use."""
    with throwaway_cluster() as cluster:
        yield cluster


@pytest.fixture
def pg_url(pg_cluster: Cluster) -> str:
    """A fresh, empty database in the throwaway cluster."""
    return pg_cluster.create_database(f"t{next(_databases)}")
