"""The guard corpus (``suites/unit/guard_corpus/``) over real HTTP with the scripted model.

Batched: for each (locale, standing) one turn narrates every hostile sentence of that
pair, joined by a space — none may reach a ``delta`` or ``done.answer``, and the turn's
audit rows must drop each for its rule — and one turn narrates every legit sentence,
each of which must be published. A legit sentence with slots is looked for as the server
renders it, computed here from the standing's own counts and the locale's phrases in
``standings.yaml`` (never from beacon code). The turns run the stub question each
standing names; the machinery (chat server with an open store, narration registration,
frame reading) is ``test_narration_guard``'s.
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_narration_guard import Case, CorpusRun

from harness.chat_process import chat_with_open_store
from harness.stack import Stack

# The corpus is the unit suite's, read by its one loader (and validated there).
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "unit"))
from test_guard_corpus import (
    HOSTILE,
    LEGIT,
    PHRASES,
    STANDINGS,
    NamedStanding,
    Sentence,
)

pytestmark = [pytest.mark.e2e, pytest.mark.xdist_group("guard-corpus-http")]

_SLOT = re.compile(r"\{\{(count|shown):(\w+)\}\}")


def _grouped(n: int, locale: str) -> str:
    return f"{n:,}".replace(",", PHRASES[locale]["grouping"])


def rendered(text: str, named: NamedStanding, locale: str) -> str:
    """A legit sentence as the server publishes it: each slot in its grade's phrase."""
    counts = {c.slot: c for c in named.counts}

    def phrase(match: re.Match[str]) -> str:
        kind, count = match.group(1), counts[match.group(2)]
        if kind == "shown":
            return PHRASES[locale]["shown"].format(n=_grouped(count.displayed, locale))
        assert count.total is not None, f"{text!r}: no count to render under {named.name}"
        return PHRASES[locale][count.grade.value].format(n=_grouped(count.total, locale))

    return _SLOT.sub(phrase, text)


def _batches(corpus: list[Sentence]) -> dict[tuple[str, str], list[Sentence]]:
    found: dict[tuple[str, str], list[Sentence]] = {}
    for sentence in corpus:
        found.setdefault((sentence.locale, sentence.standing), []).append(sentence)
    return found


HOSTILE_BATCHES = _batches(HOSTILE)
LEGIT_BATCHES = _batches(LEGIT)


def _case(kind: str, locale: str, name: str, sentences: list[Sentence]) -> Case:
    http = STANDINGS[name].http
    return Case(
        id=f"guard-corpus-{kind}-{locale}-{name}",
        corpus=kind,
        locale=locale,
        scenario=http["scenario"],
        question=http["question"],
        text=" ".join(s.text for s in sentences),
        chunks=None,
        hostile=tuple(s.text for s in sentences) if kind == "hostile" else (),
        keep=tuple(rendered(s.text, STANDINGS[name], locale) for s in sentences)
        if kind == "legit"
        else (),
        rules=tuple(sorted({s.rule or "" for s in sentences})) if kind == "hostile" else (),
        grounds=("slot",) if kind == "legit" else (),
    )


class ViewRun(CorpusRun):
    """``CorpusRun`` that sends a standing's host view with its question."""

    def __init__(self, *args: Any, views: dict[str, dict[str, Any]]) -> None:
        super().__init__(*args)
        self._views = views

    def extra_body(self, case: Case) -> dict[str, Any]:
        view = self._views.get(case.id)
        return {} if view is None else {"view_context": view}


@pytest.fixture(scope="module")
def guard_run(stack: Stack, tmp_path_factory: pytest.TempPathFactory) -> Iterator[CorpusRun]:
    data = tmp_path_factory.mktemp("guard-corpus-http")
    views = {
        _case(kind, locale, name, []).id: STANDINGS[name].http["view_context"]
        for kind, batches in (("hostile", HOSTILE_BATCHES), ("legit", LEGIT_BATCHES))
        for locale, name in batches
        if "view_context" in STANDINGS[name].http
    }
    with chat_with_open_store(stack, data, "gc1", BEACON_SCENARIOS="allow") as (url, store):
        token = stack.token(sub="guard-corpus")
        run = ViewRun(url, stack.llm_url.removesuffix("/v1"), token, store, views=views)
        try:
            yield run
        finally:
            run.forget()


@pytest.mark.parametrize(
    ("locale", "name"), list(HOSTILE_BATCHES), ids=[f"{loc}-{n}" for loc, n in HOSTILE_BATCHES]
)
def test_no_hostile_sentence_of_a_batch_reaches_the_wire(
    guard_run: CorpusRun, locale: str, name: str
) -> None:
    sentences = HOSTILE_BATCHES[(locale, name)]
    outcome = guard_run.outcome(_case("hostile", locale, name, sentences))
    assert outcome.wire_faults() == [], outcome.answer
    assert outcome.hostile_published() == [], outcome.answer
    # Each sentence is dropped once, for the rule the unit corpus names.
    assert Counter(d["rule"] for d in outcome.drops) == Counter(s.rule for s in sentences)


@pytest.mark.parametrize(
    ("locale", "name"), list(LEGIT_BATCHES), ids=[f"{loc}-{n}" for loc, n in LEGIT_BATCHES]
)
def test_every_legit_sentence_of_a_batch_is_published(
    guard_run: CorpusRun, locale: str, name: str
) -> None:
    sentences = LEGIT_BATCHES[(locale, name)]
    outcome = guard_run.outcome(_case("legit", locale, name, sentences))
    assert outcome.wire_faults() == [], outcome.answer
    assert outcome.drops == [], outcome.drops
    assert outcome.keep_missing() == [], outcome.answer
