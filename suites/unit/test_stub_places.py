"""Where the stub's records stand: every capture, photo and finding has a camera view
inside its project's level, seeded like the rest of the corpus, and adding the views
moved none of the records every figure was measured on.

The site plans below are the expectation, written out: Harbor Tower's levels are
48 × 32 m with 3.6 m storeys, and so on.
"""

from __future__ import annotations

import dataclasses
import hashlib
import math
import os
import subprocess
import sys
from collections.abc import Iterator

import pytest

from stub_server.corpus import Corpus, build_corpus
from stub_server.records import View

# project id → (width, depth, storey height), metres
SITE_PLANS = {
    "prj-harbor-tower": (48.0, 32.0, 3.6),
    "prj-maple-clinic": (60.0, 24.0, 4.2),
    "prj-cedar-school": (72.0, 40.0, 3.9),
    "prj-riverside-depot": (90.0, 50.0, 7.5),
}
# sha256 of seed 7's core records (projects … clashes) as they were before views existed.
CORE_RECORDS_SEED_7 = "2bcdf49d24cfe977ecd2cceabf971ef692cddc9976177e275f653c9bb4dd3968"
CORE_TABLES = (
    "projects",
    "levels",
    "captures",
    "photos",
    "annotations",
    "documents",
    "progress",
    "clashes",
)


@pytest.fixture(scope="module")
def corpus() -> Corpus:
    return build_corpus()


def _placed(corpus: Corpus) -> Iterator[tuple[str, str, int]]:
    for records in (corpus.captures, corpus.photos, corpus.annotations):
        for record in records:
            yield record.id, record.project_id, record.level_number


def _on_level(point: tuple[float, float, float], project_id: str, level: int) -> bool:
    width, depth, storey = SITE_PLANS[project_id]
    floor = (level - 1) * storey
    x, y, z = point
    return 0 <= x <= width and 0 <= y <= depth and floor <= z <= floor + storey


def test_every_capture_photo_and_finding_has_a_view_inside_its_own_level(corpus: Corpus) -> None:
    outside = []
    for record_id, project_id, level in _placed(corpus):
        view = corpus.places.views[record_id]
        if not (
            _on_level(view.position, project_id, level)
            and _on_level(view.look_at, project_id, level)
        ):
            outside.append((record_id, view))
    assert outside == []
    assert len(corpus.places.views) == 7961 + 120 + 260 + 40 + 1704 + 2080


def _distance(view: View) -> float:
    return math.dist(view.position, view.look_at)


def test_a_view_looks_a_few_metres_ahead_along_its_unit_direction(corpus: Corpus) -> None:
    for record_id, _, _ in _placed(corpus):
        view = corpus.places.views[record_id]
        assert 1.5 <= _distance(view) <= 6.5, (record_id, view)
        assert math.isclose(math.hypot(*view.direction), 1.0, abs_tol=1e-3), (record_id, view)
        ahead = [
            (b - a) / _distance(view) for a, b in zip(view.position, view.look_at, strict=True)
        ]
        cosine = sum(d * a for d, a in zip(view.direction, ahead, strict=True))
        assert math.isclose(cosine, 1.0, abs_tol=1e-3), (record_id, view)


def test_a_finding_is_seen_from_its_captures_camera(corpus: Corpus) -> None:
    views = corpus.places.views
    for annotation in corpus.annotations:
        assert views[annotation.id].position == views[annotation.capture_id].position


def test_findings_pinned_to_an_element_carry_a_bim_reference_and_ppe_findings_none(
    corpus: Corpus,
) -> None:
    bims = corpus.places.bims
    for annotation in corpus.annotations:
        if annotation.title.startswith("Curtain wall bracket out of line"):
            bim = bims[annotation.id]
            assert bim.model in {"HT-ARC", "MC-ARC", "CS-ARC", "RD-ARC"}
            assert bim.element.startswith("curtain wall bracket CW-")
            assert bim.level == f"L{annotation.level_number:02d}"
        if annotation.category == "ppe":
            assert annotation.id not in bims


def test_a_findings_place_names_its_review_and_the_host_scope(corpus: Corpus) -> None:
    finding = next(a for a in corpus.annotations if a.kind == "quality")
    harbor = corpus.projects[0]
    fields = corpus.places.fields(finding.id, harbor)
    assert fields["review"] == "Monthly quality review"
    assert (fields["organisation"], fields["team"], fields["project_name"]) == (
        "Northline Builders",
        "Harbor Tower site team",
        "Harbor Tower",
    )
    assert "review" not in corpus.places.fields(corpus.captures[0].id, harbor)


_DIGEST_VIEWS = (
    "import hashlib; from stub_server.corpus import build_corpus; "
    "print(hashlib.sha256(repr(sorted(build_corpus(7).places.views.items())).encode()).hexdigest())"
)


def test_the_views_are_the_same_in_every_process() -> None:
    def digest(hash_seed: str) -> str:
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        done = subprocess.run(
            [sys.executable, "-c", _DIGEST_VIEWS],
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0, done.stderr
        return done.stdout.strip()

    assert digest("1") == digest("2")


def test_adding_views_moved_none_of_the_core_records(corpus: Corpus) -> None:
    digest = hashlib.sha256()
    for table in CORE_TABLES:
        for record in getattr(corpus, table):
            digest.update(repr(dataclasses.astuple(record)).encode())
    assert digest.hexdigest() == CORE_RECORDS_SEED_7
