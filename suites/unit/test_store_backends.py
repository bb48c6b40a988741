"""A backend gives the turn store hooks and nothing else: each backend defines every
hook of ``Backend`` itself (a hook left to the protocol's empty body would answer
``None`` without a word), overrides no record rule, and each record rule has one
home among the store's record modules. A read lost under a dropped connection is
tried once more. Every statement in the store is written with ``?``."""

from __future__ import annotations

import ast
import inspect
from collections.abc import Iterator
from contextlib import AbstractContextManager
from pathlib import Path

import pytest

import beacon.store
from beacon.store import backends
from beacon.store.audit_rows import AuditRecords
from beacon.store.backends import Backend, Tx
from beacon.store.core import StoreCore
from beacon.store.crypto import format_key, generate_key, parse_keys
from beacon.store.errors import StoreUnavailable
from beacon.store.frames import TurnFrames
from beacon.store.pages import PageRecords
from beacon.store.postgres import PostgresStore
from beacon.store.sessions import SessionRecords
from beacon.store.sqlite import SqliteStore
from beacon.store.turns import TurnStore

BACKENDS = (SqliteStore, PostgresStore)
RECORD_HOMES = (StoreCore, TurnFrames, SessionRecords, PageRecords, AuditRecords, TurnStore)
# Set on the instance by StoreCore (the process's id), read by the backends.
INSTANCE_HOOKS = frozenset({"worker"})


def _hooks() -> set[str]:
    declared = set(Backend.__annotations__) | {
        name for name, value in vars(Backend).items() if inspect.isfunction(value)
    }
    return {name for name in declared if not name.startswith("__")} - INSTANCE_HOOKS


def _own(cls: type) -> set[str]:
    # ABCMeta and Protocol mark every class they make (``_abc_impl``, ``_is_protocol``).
    return {name for name in vars(cls) if not name.startswith(("__", "_abc_", "_is_"))}


def test_the_protocol_names_the_hooks_the_record_rules_call() -> None:
    # A walk that found no hooks would pass the checks below.
    assert {"transaction", "reading", "dead_running", "announce", "lock_rows"} <= _hooks()


@pytest.mark.parametrize("backend", BACKENDS, ids=lambda cls: cls.__name__)
def test_each_backend_defines_every_hook_itself(backend: type[TurnStore]) -> None:
    missing = {
        name
        for name in _hooks()
        if next(c for c in backend.__mro__ if name in vars(c)) is not backend
    }
    assert not missing, f"{backend.__name__} leaves these hooks to the protocol: {missing}"


@pytest.mark.parametrize("backend", BACKENDS, ids=lambda cls: cls.__name__)
def test_a_backend_overrides_no_record_rule(backend: type[TurnStore]) -> None:
    rules = set().union(*(_own(home) for home in RECORD_HOMES))
    assert not _own(backend) & rules


def test_each_record_rule_has_one_home() -> None:
    seen: dict[str, str] = {}
    twice = []
    for home in RECORD_HOMES:
        for name in _own(home):
            if name in seen:
                twice.append(f"{name}: {seen[name]} and {home.__name__}")
            seen[name] = home.__name__
    assert not twice


class _Dropping(SqliteStore):
    """A store whose first ``drops`` reads find the connection gone (a restart)."""

    drops = 0

    def reading(self) -> AbstractContextManager[Tx]:
        if self.drops:
            self.drops -= 1
            raise StoreUnavailable("the connection was lost")
        return super().reading()


@pytest.fixture
def dropping(tmp_path: Path) -> Iterator[_Dropping]:
    store = _Dropping(tmp_path / "beacon.sqlite3", parse_keys(format_key("k1", generate_key())))
    store.open_turn("t1", owner="u", session_id=None, mode="single")
    yield store
    store.close()


def test_a_read_lost_with_its_connection_is_tried_once_more(dropping: _Dropping) -> None:
    dropping.drops = 1
    turn = dropping.turn("t1")
    assert dropping.drops == 0 and turn is not None and turn.owner == "u"


def test_a_read_lost_twice_is_store_unavailable(dropping: _Dropping) -> None:
    dropping.drops = 2
    with pytest.raises(StoreUnavailable):
        dropping.turn("t1")


def _psycopg_placeholders(path: Path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        text = node.value if isinstance(node, ast.Constant) else None
        if isinstance(text, str) and ("%s" in text or "%(" in text):
            found.append(f"{path.name}:{node.lineno}")
    return found


def test_every_statement_in_the_store_is_written_with_question_marks() -> None:
    # psycopg's placeholder is made in one place, backends.psycopg_sql.
    package = Path(beacon.store.__file__).parent
    modules = [p for p in sorted(package.glob("*.py")) if p != Path(backends.__file__)]
    assert len(modules) > 10  # the walk reached the package
    assert [hit for path in modules for hit in _psycopg_placeholders(path)] == []
