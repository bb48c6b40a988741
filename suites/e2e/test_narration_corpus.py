"""The narration corpus itself: well formed, at its floors, its figures and the ids,
dates, levels and titles it cites those of the stub corpus, and its measure able to fail.

The cases and the measure are ``test_narration_guard.py``'s; this file judges them
without a server.
"""

from __future__ import annotations

import re
from collections import Counter

import pytest
from test_narration_guard import (
    ALL_CASES,
    DROPPED,
    GROUNDS,
    HOSTILE,
    LEGIT,
    LOCALES,
    MIN_CASES_PER_LOCALE,
    MIN_CHUNKED_HOSTILE,
    MIN_HOSTILE_CASES,
    MIN_LEGIT_SENTENCES,
    MODEL,
    RULES,
    Outcome,
    norm,
)

from stub_server.corpus import Corpus, build_corpus
from stub_server.scenarios import UnknownScenario, load_scenario
from stub_server.tools import DEFAULT_FETCH_CAP
from stub_server.tools_search import SearchIndex

pytestmark = [pytest.mark.e2e]


def test_the_corpus_is_well_formed() -> None:
    ids = [c.id for c in ALL_CASES]
    assert len(ids) == len(set(ids)), [i for i, n in Counter(ids).items() if n > 1]
    for case in ALL_CASES:
        assert case.locale in LOCALES, case.id
        try:
            scenario = load_scenario(case.scenario)
        except UnknownScenario:
            pytest.fail(f"{case.id}: unknown scenario {case.scenario!r}")
        assert scenario.model == MODEL, f"{case.id}: {case.scenario} does not narrate"
        assert set(case.rules) <= set(RULES), case.id
        assert set(case.grounds) <= set(GROUNDS), case.id
        text = norm(case.text)
        # A hostile sentence the narration does not contain would pass vacuously.
        for sentence in case.hostile:
            assert norm(sentence) in text, f"{case.id}: {sentence!r} is not in its narration"
        for sentence in case.keep:
            assert norm(sentence) in text or "{{" in case.text, f"{case.id}: {sentence!r}"
        if case.corpus == "hostile":
            assert case.rules, case.id
        if case.chunks is not None:
            assert len(case.chunks) > 1, f"{case.id}: one chunk is not a split"


def test_the_corpus_reaches_its_floors() -> None:
    assert len(HOSTILE) >= MIN_HOSTILE_CASES
    assert sum(len(c.keep) for c in LEGIT) >= MIN_LEGIT_SENTENCES
    assert len(LEGIT) >= MIN_LEGIT_SENTENCES
    per_locale = Counter(c.locale for c in HOSTILE)
    assert all(per_locale[loc] >= MIN_CASES_PER_LOCALE for loc in ("ko", "ja", "de", "es"))
    assert all(Counter(c.locale for c in LEGIT)[loc] >= 5 for loc in LOCALES)
    assert sum(1 for c in HOSTILE if c.chunks) >= MIN_CHUNKED_HOSTILE
    assert set(RULES) <= {r for c in HOSTILE for r in c.rules}
    assert set(GROUNDS) <= {g for c in LEGIT for g in c.grounds}
    assert sum(1 for c in HOSTILE if c.keep) >= 5  # hostile beside a legitimate sentence
    for scenario in ("model-narrates-legacy", "model-narrates-inband-502"):
        assert any(c.scenario == scenario for c in HOSTILE), scenario


def _annotations(corpus: Corpus, project: str, **fields: object) -> int:
    return sum(
        1
        for a in corpus.annotations
        if a.project_id == project and all(getattr(a, k) == v for k, v in fields.items())
    )


def test_the_figures_the_corpus_writes_are_the_stub_corpus_figures() -> None:
    """Every rendered count a case expects, recomputed from the stub corpus (never beacon)."""
    corpus = build_corpus()
    ht, mc, rd = "prj-harbor-tower", "prj-maple-clinic", "prj-riverside-depot"
    hard_hats = SearchIndex(corpus).candidates(ht, "hard hats", DEFAULT_FETCH_CAP)
    figures = {
        "Harbor Tower panoramas (EXACT aggregate, 7,961)": (
            sum(1 for c in corpus.captures if c.project_id == ht),
            7961,
        ),
        "hard-hat photos in Harbor Tower (search bound, at least 173)": (len(hard_hats), 173),
        "open safety findings on Level 3 of Harbor Tower (24)": (
            _annotations(corpus, ht, kind="safety", status="open", level_number=3),
            24,
        ),
        "open safety findings in Riverside Depot (complete, 6)": (
            _annotations(corpus, rd, kind="safety", status="open"),
            6,
        ),
        "open safety findings on Level 3 of Maple Clinic (complete, 8)": (
            _annotations(corpus, mc, kind="safety", status="open", level_number=3),
            8,
        ),
        "closed fire safety findings in Maple Clinic (complete, 2)": (
            _annotations(corpus, mc, category="fire safety", status="closed"),
            2,
        ),
        "open electrical findings on Level 2 of Riverside Depot (complete, 1)": (
            _annotations(corpus, rd, category="electrical", status="open", level_number=2),
            1,
        ),
        "open findings in Harbor Tower (714, hostile cases' truth)": (
            _annotations(corpus, ht, status="open"),
            714,
        ),
        "findings in Harbor Tower (1,800)": (_annotations(corpus, ht), 1800),
        "panoramas on Level 3 of Harbor Tower (554)": (
            sum(1 for c in corpus.captures if c.project_id == ht and c.level_number == 3),
            554,
        ),
    }
    assert {k: v[0] for k, v in figures.items()} == {k: v[1] for k, v in figures.items()}


_RECORD_ID = re.compile(r"\b(?:ph|cap|ann)-\d{6}\b")
_LEVEL = re.compile(r"\bLevel (\d+)\b")
_DATE = re.compile(r"\b\d{4}-\d{2}-\d{2}\b")
_QUOTED = re.compile(r'"([^"]+)"|„([^“]+)“|「([^」]+)」')


def _records(corpus: Corpus) -> dict[str, tuple[str, int, str]]:
    """id → (title, level number, date) for every record a card can show."""
    found = {p.id: (p.title, p.level_number, p.taken_at[:10]) for p in corpus.photos}
    found |= {c.id: (c.label, c.level_number, c.captured_at[:10]) for c in corpus.captures}
    found |= {a.id: (a.title, a.level_number, a.created_at[:10]) for a in corpus.annotations}
    return found


def test_the_ids_dates_levels_and_titles_legit_cases_cite_are_real() -> None:
    records = _records(build_corpus())
    titles = {title for title, _, _ in records.values()}
    for case in LEGIT:
        for sentence in case.keep:
            ids = _RECORD_ID.findall(sentence)
            for record_id in ids:
                assert record_id in records, f"{case.id}: no record {record_id}"
            if len(ids) == 1:
                title, level, day = records[ids[0]]
                for number in _LEVEL.findall(sentence):
                    assert int(number) == level, f"{case.id}: {ids[0]} is on Level {level}"
                for date in _DATE.findall(sentence):
                    assert date == day, f"{case.id}: {ids[0]} is dated {day}"
                quoted = {next(g for g in m if g) for m in _QUOTED.findall(sentence)}
                assert quoted <= {title}, f"{case.id}: {ids[0]} is titled {title!r}"
            if "title" in case.grounds:
                quoted = {next(g for g in m if g) for m in _QUOTED.findall(sentence)}
                assert quoted and quoted <= titles, f"{case.id}: {quoted} are not titles"


def test_the_measure_reads_a_sentence_split_across_deltas() -> None:
    """The runner can fail: a count split over two deltas is still seen as published."""
    case = next(c for c in HOSTILE if c.id == "chunks-en-found-1-0")
    leaked = Outcome(
        case,
        turn_id="t_x",
        deltas=["I found 1", "0 photos that match your question."],
        answer="I found 10 photos that match your question.",
        events=["start", "references", "delta", "delta", "done"],
    )
    assert leaked.hostile_published() == list(case.hostile)
    assert "no narration_dropped audit row for the turn" in leaked.problems()
    held = Outcome(
        case,
        turn_id="t_y",
        deltas=["The data source answered."],
        answer="The data source answered.",
        events=["start", "delta", "done"],
        drops=[{"kind": DROPPED, "rule": "free_count", "token": "10"}],
    )
    assert held.problems() == []
    silent = Outcome(case, turn_id="t_z", answer="", events=["start", "done", "done"], drops=[])
    assert any("silence" in p for p in silent.problems())
    assert any("exactly one done" in p for p in silent.problems())
