"""A "which …" question enumerates a typed field of every record."""

from __future__ import annotations

import pytest

from beacon.loop.sets import asked_field, counts_members, enumerate_field


@pytest.mark.parametrize(
    ("question", "field"),
    [
        pytest.param("Which companies have open findings?", "company", id="companies"),
        pytest.param("which subcontractors worked on level 2", "company", id="subcontractors"),
        pytest.param("What categories of safety findings are open?", "category", id="categories"),
        pytest.param("Which levels have clashes?", "level_number", id="levels"),
        pytest.param("Which photos show rebar?", None, id="not-a-field"),
        pytest.param("How many findings are open?", None, id="a-count-is-not-a-set"),
        pytest.param("Which inspectors raised findings", "inspector", id="inspectors"),
        pytest.param("Who created the findings on level 2?", "inspector", id="who-created"),
        pytest.param("Which photos on level 2 show rebar?", None, id="a-level-filter"),
        pytest.param("Welche Firmen haben offene Befunde?", "company", id="de-companies"),
        pytest.param("Wer hat die Befunde erstellt?", "inspector", id="de-who"),
        pytest.param("¿Qué empresas tienen hallazgos abiertos?", "company", id="es-companies"),
        pytest.param("¿Qué categorías tienen los hallazgos?", "category", id="es-categories"),
        pytest.param("2층 지적 사항에는 어떤 업체가 있나요?", "company", id="ko-companies"),
        pytest.param("어느 층에 지적 사항이 있나요?", "level_number", id="ko-levels"),
        pytest.param("指摘にはどの会社がありますか", "company", id="ja-companies"),
        pytest.param("2階の指摘を作成したのは誰ですか", "inspector", id="ja-who"),
        pytest.param("Welche Gewerke gibt es?", "trade", id="de-trades"),
        # "How many companies …" asks for the members, not the records' count.
        pytest.param("How many companies have findings?", "company", id="how-many-companies"),
        pytest.param("How many inspectors raised findings?", "inspector", id="how-many-people"),
        pytest.param("Wie viele Firmen haben Befunde?", "company", id="de-how-many"),
        pytest.param("¿Cuántas empresas tienen hallazgos?", "company", id="es-how-many"),
        pytest.param("지적 사항이 있는 업체는 몇 곳인가요?", "company", id="ko-how-many"),
        pytest.param("指摘がある会社は何社ですか？", "company", id="ja-how-many"),
        # A level is a record of its own tool: "how many levels" is that tool's count.
        pytest.param("How many levels does Cedar School have?", None, id="how-many-levels"),
        pytest.param("How many findings does Keystone Concrete have?", None, id="a-company-named"),
    ],
)
def test_the_asked_field_is_recognised(question: str, field: str | None) -> None:
    assert asked_field(question) == field


def test_members_come_from_every_record_and_gaps_are_reported() -> None:
    rows = [
        {"id": "a", "company": "Keystone"},
        {"id": "b", "company": "Apex"},
        {"id": "c", "company": "Keystone"},
        {"id": "d", "company": None},
        {"id": "e"},
    ]
    found = enumerate_field(
        "list_annotations", {"structuredContent": {"items": rows}}, "company", complete=True
    )
    assert found is not None
    assert found.members == ("Apex", "Keystone") and found.without_field == 2
    assert found.relation == "appears_in_findings"
    assert found.wire("list_annotations", "c1")["method"] == "enumerate"


def test_numeric_members_sort_as_numbers() -> None:
    rows = [{"level_number": n} for n in (10, 2, 1, 2)]
    found = enumerate_field(
        "query_data", {"structuredContent": {"rows": rows}}, "level_number", complete=False
    )
    assert found is not None and found.members == ("1", "2", "10") and not found.complete


def test_a_result_without_the_field_enumerates_nothing() -> None:
    assert (
        enumerate_field(
            "query_data", {"structuredContent": {"rows": [{"id": "x"}]}}, "company", complete=True
        )
        is None
    )
    assert enumerate_field("query_data", {}, "company", complete=True) is None


def test_a_field_one_level_down_is_enumerated_from_every_nested_row() -> None:
    levels = [
        {"level_number": 1, "trades": [{"trade": "structure"}, {"trade": "drywall"}]},
        {"level_number": 2, "trades": [{"trade": "structure"}, {"trade": "finishes"}]},
    ]
    found = enumerate_field(
        "get_progress_summary", {"structuredContent": {"items": levels}}, "trade", complete=True
    )
    assert found is not None and found.members == ("drywall", "finishes", "structure")


@pytest.mark.parametrize(
    ("question", "field", "counts"),
    [
        ("How many companies have findings?", "company", True),
        ("Wie viele Prüfer haben Befunde erstellt?", "inspector", True),
        ("¿Cuántas empresas tienen hallazgos?", "company", True),
        ("지적 사항이 있는 업체는 몇 곳인가요?", "company", True),
        ("指摘がある会社は何社ですか？", "company", True),
        ("Which companies have findings?", "company", False),
        ("How many findings does each company have?", "company", False),
        ("How many levels does Cedar School have?", "level_number", False),
    ],
)
def test_how_many_of_a_field_asks_for_the_number_of_its_members(
    question: str, field: str, counts: bool
) -> None:
    assert counts_members(question, field) is counts
