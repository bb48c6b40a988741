"""Safety-filter hooks: a question stopped before any model or upstream call, an
answer stopped before any of it is published.

A filter is any object with one or both of these methods (``InputFilter``,
``OutputFilter``); each returns ``PASS`` or ``block("reason_code")``::

    class NoSecrets:
        async def check_question(self, question: str, *, locale: str) -> Verdict:
            return block("secret_asked") if "password" in question else PASS

        async def check_answer(self, answer: str, *, question: str, locale: str) -> Verdict:
            return PASS

    FILTER = NoSecrets()          # BEACON_FILTERS=my_package.filters:FILTER

The input check runs on the question first thing in a turn (before its context
round, its planner and its upstream session); the output check runs on the answer
the narration guard let through, before it is saved or a delta of it goes out. The
first block wins: the turn gets a ``blocked`` notice (the lexicon's words, never
the filter's) and ends in one ``error`` with code ``blocked``; the audit row names
the filter and the stage. Filters are named by ``BEACON_FILTERS`` (comma-separated
``module:attribute``) and by the ``beacon.filters`` entry-point group, loaded once
at start; none configured passes everything.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Awaitable, Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from importlib.metadata import EntryPoint, entry_points
from typing import Protocol, runtime_checkable

from beacon.loop.errors import LoopError

ENTRY_POINT_GROUP = "beacon.filters"
SETTING = "BEACON_FILTERS"
# A code for logs, the audit and metrics: short and machine-readable, never a sentence
# a filter could use to talk to the user.
_REASON = re.compile(r"[a-z][a-z0-9_]{0,39}")
_NAME = re.compile(r"[A-Za-z_][\w.]*:[A-Za-z_][\w.]*")


class Stage(StrEnum):
    INPUT = "input"  # the question, before anything runs
    OUTPUT = "output"  # the guarded answer, before it is saved or published


@dataclass(frozen=True, slots=True)
class Verdict:
    reason: str | None = None  # None: the text passes

    @property
    def blocked(self) -> bool:
        return self.reason is not None


PASS = Verdict()


def block(reason: str) -> Verdict:
    if not _REASON.fullmatch(reason):
        raise ValueError(f"a block's reason is a code like 'secret_asked', got {reason!r}")
    return Verdict(reason)


@runtime_checkable
class InputFilter(Protocol):
    async def check_question(self, question: str, *, locale: str) -> Verdict: ...


@runtime_checkable
class OutputFilter(Protocol):
    async def check_answer(self, answer: str, *, question: str, locale: str) -> Verdict: ...


class FilterError(LoopError):
    """A configured filter cannot be loaded (a start-up error) or failed on a turn."""

    code = "filter_failed"


class TurnBlocked(LoopError):
    """A filter blocked the turn: its terminal is an ``error`` with this code."""

    code = "blocked"


@dataclass(frozen=True, slots=True)
class Filters:
    """The configured filters by stage, each with its configured name (``module:attribute``
    or ``entry-point:NAME``), in the order they run; an object with both methods is in both."""

    inputs: tuple[tuple[str, InputFilter], ...] = ()
    outputs: tuple[tuple[str, OutputFilter], ...] = ()


NO_FILTERS = Filters()  # the default: every question and every answer passes


@dataclass(frozen=True, slots=True)
class Blocked:
    """Which filter stopped the turn, where, and its reason code."""

    stage: Stage
    name: str
    reason: str


def _resolve(name: str) -> object:
    if not _NAME.fullmatch(name):
        raise FilterError(
            f"{SETTING}: {name!r} is not module:attribute "
            "(e.g. harness.example_filters:MARKED_QUESTIONS)"
        )
    module_name, _, attribute = name.partition(":")
    try:
        found: object = importlib.import_module(module_name)
    except ImportError as exc:
        raise FilterError(
            f"{SETTING}: cannot import {module_name!r} ({exc}): install it or fix the name"
        ) from exc
    for part in attribute.split("."):
        if not hasattr(found, part):
            raise FilterError(
                f"{SETTING}: {module_name!r} has no {attribute!r}: name an object it defines"
            )
        found = getattr(found, part)
    return found


def _checked_kind(name: str, found: object) -> tuple[str, object]:
    # A class has the methods too (unbound): the isinstance check alone would pass it.
    if isinstance(found, type) or not isinstance(found, InputFilter | OutputFilter):
        raise FilterError(
            f"{SETTING}: {name} has neither check_question nor check_answer: "
            "name a filter object (beacon/loop/filters.py), not its class or module"
        )
    return name, found


def load_filters(setting: str | None, plugins: Iterable[EntryPoint] | None = None) -> Filters:
    """The filters ``BEACON_FILTERS`` names, then the ``beacon.filters`` entry points."""
    names = [n for n in (setting or "").replace(" ", "").split(",") if n]
    loaded = [_checked_kind(n, _resolve(n)) for n in names]
    for point in entry_points(group=ENTRY_POINT_GROUP) if plugins is None else plugins:
        try:
            found = point.load()
        except Exception as exc:
            raise FilterError(
                f"entry point {ENTRY_POINT_GROUP} {point.name!r} does not load ({exc}): "
                "fix or uninstall the package that declares it"
            ) from exc
        loaded.append(_checked_kind(f"entry-point:{point.name}", found))
    return Filters(
        inputs=tuple((n, f) for n, f in loaded if isinstance(f, InputFilter)),
        outputs=tuple((n, f) for n, f in loaded if isinstance(f, OutputFilter)),
    )


async def _run(name: str, check: Awaitable[object]) -> Verdict:
    # A filter that fails stops the turn (filter_failed): an unchecked answer is
    # never published because its checker broke.
    try:
        verdict = await check
    except Exception as exc:
        raise FilterError(f"filter {name} failed: {type(exc).__name__}") from exc
    if not isinstance(verdict, Verdict):
        raise FilterError(f"filter {name} returned {type(verdict).__name__}, not a Verdict")
    return verdict


async def first_block_of_question(
    filters: Sequence[tuple[str, InputFilter]], question: str, locale: str
) -> Blocked | None:
    for name, check in filters:
        verdict = await _run(name, check.check_question(question, locale=locale))
        if verdict.reason is not None:
            return Blocked(Stage.INPUT, name, verdict.reason)
    return None


async def first_block_of_answer(
    filters: Sequence[tuple[str, OutputFilter]], answer: str, question: str, locale: str
) -> Blocked | None:
    for name, check in filters:
        verdict = await _run(name, check.check_answer(answer, question=question, locale=locale))
        if verdict.reason is not None:
            return Blocked(Stage.OUTPUT, name, verdict.reason)
    return None
