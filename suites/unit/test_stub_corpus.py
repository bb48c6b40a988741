"""The seeded corpus: deterministic, fast, and shaped the way the contracts need."""

from __future__ import annotations

import threading
from collections import Counter
from contextlib import closing

import pytest

from stub_server import db
from stub_server.corpus import Corpus, build_corpus

HARBOR = "prj-harbor-tower"


@pytest.fixture(scope="module")
def corpus() -> Corpus:
    return build_corpus()


def test_the_same_seed_builds_identical_records() -> None:
    assert build_corpus.__wrapped__(7) == build_corpus.__wrapped__(7)


def test_another_seed_builds_other_records() -> None:
    assert build_corpus.__wrapped__(8).photos != build_corpus.__wrapped__(7).photos


def test_the_corpus_is_built_once_per_process() -> None:
    """Every tool call reads one corpus; building it is not timed here (a timed
    assertion is a flake on a loaded machine: speed is bench/'s to measure)."""
    assert build_corpus() is build_corpus()


def test_harbor_tower_has_exactly_7961_panoramas_on_14_levels(corpus: Corpus) -> None:
    captures = Counter(c.project_id for c in corpus.captures)
    levels = Counter(lv.project_id for lv in corpus.levels)
    assert captures[HARBOR] == 7961
    assert levels[HARBOR] == 14
    assert [p.name for p in corpus.projects] == [
        "Harbor Tower",
        "Maple Clinic",
        "Cedar School",
        "Riverside Depot",
    ]
    assert all(captures[p.id] < 3000 for p in corpus.projects if p.id != HARBOR)


def test_ids_are_unique_and_sequential(corpus: Corpus) -> None:
    for records, prefix in (
        (corpus.captures, "cap"),
        (corpus.photos, "ph"),
        (corpus.annotations, "ann"),
    ):
        assert [r.id for r in records] == [f"{prefix}-{n:06d}" for n in range(1, len(records) + 1)]


def test_photos_and_annotations_point_at_a_capture_on_their_own_level(corpus: Corpus) -> None:
    where = {c.id: (c.project_id, c.level_number) for c in corpus.captures}
    for photo in corpus.photos:
        assert where[photo.capture_id] == (photo.project_id, photo.level_number)
    for annotation in corpus.annotations:
        assert where[annotation.capture_id] == (annotation.project_id, annotation.level_number)


def test_photo_descriptions_read_like_a_paragraph(corpus: Corpus) -> None:
    lengths = [len(p.description) for p in corpus.photos]
    assert min(lengths) >= 300 and max(lengths) <= 600
    assert 1400 <= sum(1 for p in corpus.photos if p.project_id == HARBOR) <= 1600


def test_open_safety_findings_on_harbor_level_3_are_a_non_round_figure(corpus: Corpus) -> None:
    found = [
        a
        for a in corpus.annotations
        if a.project_id == HARBOR
        and a.kind == "safety"
        and a.status == "open"
        and a.level_number == 3
    ]
    assert 20 <= len(found) <= 80
    assert len(found) != 10


def test_the_database_holds_every_record(corpus: Corpus) -> None:
    for table in ("projects", "levels", "captures", "photos", "annotations"):
        _, rows = db.run(corpus, f"SELECT COUNT(*) FROM {table}")
        assert rows[0][0] == len(getattr(corpus, table))


def test_a_database_connection_refuses_writes(corpus: Corpus) -> None:
    with closing(db.connect(corpus)) as conn, pytest.raises(Exception, match="readonly"):
        conn.execute("DELETE FROM captures")


def test_the_database_answers_from_several_threads_at_once(corpus: Corpus) -> None:
    results: list[int] = []
    errors: list[BaseException] = []

    def count() -> None:
        try:
            _, rows = db.run(
                corpus, "SELECT COUNT(*) FROM captures WHERE project_id = ?", (HARBOR,)
            )
            results.append(rows[0][0])
        except BaseException as exc:  # surfaced below, in the test's own thread
            errors.append(exc)

    threads = [threading.Thread(target=count) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=10)
    assert not errors
    assert results == [7961] * 8
