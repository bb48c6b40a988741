"""Safety filters (beacon/loop/filters.py): how they are named and loaded, what a filter
may answer, which one wins, and the words a block is told in (beacon/lexicon/copy.py)."""

from __future__ import annotations

from importlib.metadata import EntryPoint

import anyio
import pytest

from beacon.lexicon.copy import BLOCKED
from beacon.loop.filters import (
    PASS,
    Blocked,
    FilterError,
    Stage,
    Verdict,
    block,
    first_block_of_answer,
    first_block_of_question,
    load_filters,
)
from beacon.loop.screen import audit_record
from beacon.server.settings import SettingsError, settings_from_env
from beacon.store.crypto import new_key_slot
from harness.example_filters import BOTH, MARKED_ANSWERS, MARKED_QUESTIONS

GROUP = "beacon.filters"


class Loud:
    """A filter that fails: the turn must not go on unchecked."""

    async def check_question(self, question: str, *, locale: str) -> Verdict:
        raise RuntimeError("moderation service down")


class Chatty:
    """A filter that answers with words instead of a verdict."""

    async def check_question(self, question: str, *, locale: str) -> object:
        return "please do not ask that"


class BlocksAll:
    async def check_question(self, question: str, *, locale: str) -> Verdict:
        return block("everything")


def test_no_setting_and_no_entry_points_load_no_filters() -> None:
    loaded = load_filters(None, plugins=[])
    assert (loaded.inputs, loaded.outputs) == ((), ())


def test_the_setting_names_filters_in_order_each_under_the_stages_it_checks() -> None:
    loaded = load_filters(f" {BOTH} ", plugins=[])
    assert loaded.inputs == (("harness.example_filters:MARKED_QUESTIONS", MARKED_QUESTIONS),)
    assert loaded.outputs == (("harness.example_filters:MARKED_ANSWERS", MARKED_ANSWERS),)


def test_an_entry_point_of_the_group_is_loaded_under_its_name() -> None:
    point = EntryPoint("marked", "harness.example_filters:MARKED_ANSWERS", GROUP)
    loaded = load_filters("", plugins=[point])
    assert loaded.outputs == (("entry-point:marked", MARKED_ANSWERS),)


@pytest.mark.parametrize(
    ("setting", "message"),
    [
        pytest.param(
            "harness.example_filters",
            "BEACON_FILTERS: 'harness.example_filters' is not module:attribute "
            "(e.g. harness.example_filters:MARKED_QUESTIONS)",
            id="no-attribute",
        ),
        pytest.param(
            "harness.no_such_module:F",
            "BEACON_FILTERS: cannot import 'harness.no_such_module' (No module named "
            "'harness.no_such_module'): install it or fix the name",
            id="no-module",
        ),
        pytest.param(
            "harness.example_filters:NOPE",
            "BEACON_FILTERS: 'harness.example_filters' has no 'NOPE': name an object it defines",
            id="no-such-attribute",
        ),
        pytest.param(
            "harness.example_filters:MarkedQuestions",
            "BEACON_FILTERS: harness.example_filters:MarkedQuestions has neither check_question "
            "nor check_answer: name a filter object (beacon/loop/filters.py), not its class or "
            "module",
            id="a-class-not-an-object",
        ),
        pytest.param(
            "harness.example_filters:QUESTION_MARKER",
            "BEACON_FILTERS: harness.example_filters:QUESTION_MARKER has neither check_question "
            "nor check_answer: name a filter object (beacon/loop/filters.py), not its class or "
            "module",
            id="not-a-filter",
        ),
    ],
)
def test_a_bad_filter_name_is_refused_with_the_fix(setting: str, message: str) -> None:
    with pytest.raises(FilterError) as caught:
        load_filters(setting, plugins=[])
    assert str(caught.value) == message


def test_an_entry_point_that_does_not_load_is_refused_with_the_fix() -> None:
    point = EntryPoint("broken", "harness.no_such_module:F", GROUP)
    with pytest.raises(FilterError, match=r"entry point beacon\.filters 'broken' does not load"):
        load_filters("", plugins=[point])


def test_the_server_refuses_to_start_on_a_bad_filter_name() -> None:
    env = {
        "BEACON_MCP_URL": "http://127.0.0.1:9/mcp",
        "BEACON_LLM_BASE_URL": "http://127.0.0.1:9/v1",
        "BEACON_JWKS": "http://127.0.0.1:9/jwks.json",
        "BEACON_DB": ":memory:",
        "BEACON_KEYS": new_key_slot("f1"),
        "BEACON_FILTERS": "nowhere:F",
    }
    with pytest.raises(SettingsError, match=r"^BEACON_FILTERS: cannot import 'nowhere'"):
        settings_from_env(env)


def test_a_block_carries_a_code_never_a_sentence() -> None:
    assert block("secret_asked") == Verdict("secret_asked")
    assert not PASS.blocked and block("x").blocked
    for text in ("Please do not ask that.", "Secret", "", "a" * 41):
        with pytest.raises(ValueError, match="a block's reason is a code"):
            block(text)


def test_the_first_filter_that_blocks_a_question_is_the_one_named() -> None:
    filters = [("a", MARKED_QUESTIONS), ("b", BlocksAll()), ("c", MARKED_QUESTIONS)]
    # "a" passes a plain question, "b" blocks it, "c" is never asked.
    found = anyio.run(first_block_of_question, filters, "a plain question", "en")
    assert found == Blocked(Stage.INPUT, "b", "everything")
    assert anyio.run(first_block_of_question, filters[:1], "plain question", "en") is None


def test_an_answer_the_filter_passes_is_not_blocked_and_one_it_blocks_is() -> None:
    filters = [("m", MARKED_ANSWERS)]
    assert anyio.run(first_block_of_answer, filters, "Here they are.", "q", "en") is None
    found = anyio.run(first_block_of_answer, filters, "A LEAKED-SECRET here.", "q", "en")
    assert found == Blocked(Stage.OUTPUT, "m", "marked_answer")


@pytest.mark.parametrize(
    ("check", "message"),
    [
        pytest.param(Loud(), "filter loud failed: RuntimeError", id="raises"),
        pytest.param(Chatty(), "filter loud returned str, not a Verdict", id="answers-words"),
    ],
)
def test_a_filter_that_fails_stops_the_turn_as_filter_failed(check: object, message: str) -> None:
    with pytest.raises(FilterError) as caught:
        anyio.run(first_block_of_question, [("loud", check)], "question", "en")
    assert (caught.value.code, str(caught.value)) == ("filter_failed", message)


def test_the_audit_row_names_the_stage_the_filter_and_its_code() -> None:
    row = audit_record(Blocked(Stage.OUTPUT, "pkg.mod:F", "marked_answer"))
    assert row == {"kind": "filter_blocked", "rule": "output:pkg.mod:F", "token": "marked_answer"}


# A word of each locale's copy, written here, not read from the table under test.
FILTER_WORD = {
    "en": "safety filter",
    "de": "Sicherheitsfilter",
    "es": "filtro de seguridad",
    "ko": "안전 필터",
    "ja": "安全フィルター",
}


@pytest.mark.parametrize("stage", ["input", "output"])
@pytest.mark.parametrize("locale", sorted(FILTER_WORD))
def test_the_blocked_notice_is_worded_in_every_locale(stage: str, locale: str) -> None:
    assert FILTER_WORD[locale] in BLOCKED[stage][locale]
    assert set(BLOCKED[stage]) == set(FILTER_WORD)
