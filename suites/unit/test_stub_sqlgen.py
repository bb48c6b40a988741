"""NL → SQL: exact SQL for the canonical questions, counts checked against the records."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from stub_server import db
from stub_server.corpus import Annotation, Capture, Photo, build_corpus
from stub_server.sqlgen import UntranslatableQuestion, to_sql, with_row_cap

HARBOR = "prj-harbor-tower"
CORPUS = build_corpus()


def _count(sql_question: str, project_id: str = HARBOR) -> int:
    query = to_sql(sql_question, project_id)
    assert query.is_aggregate
    _, rows = db.run(CORPUS, query.sql, query.params)
    return int(rows[0][0])


def test_the_canonical_count_question_yields_the_canonical_sql() -> None:
    query = to_sql("How many open safety findings are on level 3 of Harbor Tower?", HARBOR)
    assert query.sql == (
        "SELECT COUNT(*) AS count FROM annotations WHERE project_id = ? "
        "AND kind = 'safety' AND status = 'open' AND level_number = 3"
    )
    assert query.params == (HARBOR,)
    assert (query.is_aggregate, query.entity, query.aggregate_function) == (
        True,
        "annotations",
        "COUNT",
    )


def _ann(**want: object) -> Callable[[Annotation], bool]:
    return lambda a: all(getattr(a, k) == v for k, v in want.items())


@pytest.mark.parametrize(
    ("question", "predicate"),
    [
        pytest.param(
            "How many open safety findings are on level 3 of Harbor Tower?",
            _ann(kind="safety", status="open", level_number=3),
            id="open-safety-level-3",
        ),
        pytest.param(
            "How many closed quality issues are there?",
            _ann(kind="quality", status="closed"),
            id="closed-quality",
        ),
        pytest.param(
            "Count findings in review on floor 7",
            _ann(status="in_review", level_number=7),
            id="in-review-floor-7",
        ),
        pytest.param(
            "How many fall protection findings by Apex Scaffolding are open?",
            _ann(category="fall protection", company="Apex Scaffolding", status="open"),
            id="category-and-company",
        ),
        pytest.param(
            "How many fire safety findings are there?",
            _ann(category="fire safety"),
            id="fire-safety-is-a-category",
        ),
        pytest.param(
            "How many safety findings were raised in April 2026?",
            lambda a: a.kind == "safety" and a.created_at.startswith("2026-04"),
            id="month",
        ),
    ],
)
def test_annotation_counts_match_an_independent_count(
    question: str, predicate: Callable[[Annotation], bool]
) -> None:
    expected = sum(1 for a in CORPUS.annotations if a.project_id == HARBOR and predicate(a))
    assert expected > 0
    assert _count(question) == expected


def test_panorama_and_photo_counts_match_the_records() -> None:
    def is_harbor(r: Capture | Photo) -> bool:
        return r.project_id == HARBOR

    assert _count("How many panoramas are in Harbor Tower?") == 7961
    assert _count("How many photos are on level 2?") == sum(
        1 for p in CORPUS.photos if is_harbor(p) and p.level_number == 2
    )
    assert _count("How many 360s are there?", "prj-maple-clinic") == 120


def test_a_list_question_selects_the_finding_columns_over_the_same_filter() -> None:
    query = to_sql("List all open safety findings on level 3 of Harbor Tower", HARBOR)
    assert not query.is_aggregate
    assert query.sql.startswith(
        "SELECT id, title, category, status, company, inspector, level_number, created_at "
        "FROM annotations WHERE project_id = ? AND kind = 'safety' AND status = 'open' "
        "AND level_number = 3"
    )
    columns, rows = db.run(CORPUS, query.sql, query.params)
    assert columns[0] == "id"
    assert len(rows) == _count("How many open safety findings are on level 3 of Harbor Tower?")


def test_the_row_cap_is_injected_into_list_sql_and_saturates_at_3000() -> None:
    query = with_row_cap(to_sql("List all panoramas in Harbor Tower", HARBOR), 3000)
    assert query.entity == "captures"
    assert query.sql.endswith(" LIMIT 3000")
    _, rows = db.run(CORPUS, query.sql, query.params)
    assert len(rows) == 3000


def test_single_value_aggregates_are_exempt_from_the_row_cap() -> None:
    query = to_sql("How many panoramas are in Harbor Tower?", HARBOR)
    assert with_row_cap(query, 3000) == query
    assert "LIMIT" not in with_row_cap(query, 5).sql


def test_a_cap_below_one_is_refused() -> None:
    with pytest.raises(ValueError, match="positive"):
        with_row_cap(to_sql("List photos", HARBOR), 0)


@pytest.mark.parametrize("question", ["What is the weather like?", "Tell me a joke", ""])
def test_an_untranslatable_question_raises_a_typed_error(question: str) -> None:
    with pytest.raises(UntranslatableQuestion):
        to_sql(question, HARBOR)


def test_user_text_never_reaches_the_sql_except_as_a_bound_parameter() -> None:
    query = to_sql("List photos'; DROP TABLE photos; -- on level 2", "prj'; --")
    assert "DROP" not in query.sql and "prj'" not in query.sql
    assert query.params == ("prj'; --",)
