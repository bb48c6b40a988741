"""Who leads a field and when a set begins or ends: read by code from every record.

"Who raised the most …" and "when was the last capture …" are field reads over a
complete set; a sample settles neither, and a tie names every leader. Expected
leaders are tallied here by hand from the records the tests build.
"""

from __future__ import annotations

import pytest

from beacon.adjudication.anchors import enumeration
from beacon.loop.sets import Extreme, asked_extreme, enumerate_field


def rows(*records: dict[str, object]) -> dict[str, object]:
    return {"structuredContent": {"items": list(records)}}


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("Who raised the most safety findings at Maple Clinic?", Extreme("inspector", "most")),
        ("Wer hat die meisten Befunde in Maple Clinic erstellt?", Extreme("inspector", "most")),
        ("Which level has the most open findings?", Extreme("level_number", "most")),
        ("¿Qué empresa tiene más hallazgos abiertos?", Extreme("company", "most")),
        ("When was the last capture on level 5?", Extreme("captured_at", "latest")),
        ("When was the first photo taken at Maple Clinic?", Extreme("taken_at", "earliest")),
        ("Maple Clinic 사진은 언제 마지막으로 찍었나요?", Extreme("taken_at", "latest")),
        ("Harbor Towerの指摘はいつ最初に作成されましたか", Extreme("created_at", "earliest")),
        ("Which companies have open findings?", None),
        ("When is the next inspection?", None),
    ],
)
def test_a_question_about_a_fields_end_is_read_in_any_locale(
    question: str, expected: Extreme | None
) -> None:
    assert asked_extreme(question) == expected


RECORDS = rows(
    {"inspector": "Dana Whitfield", "created_at": "2026-03-02"},
    {"inspector": "Marco Ruiz", "created_at": "2026-01-15"},
    {"inspector": "Dana Whitfield", "created_at": "2026-05-30"},
    {"inspector": "Marco Ruiz", "created_at": "2025-11-04"},
    {"inspector": "Kenji Sato", "created_at": "2026-02-10"},
)


def test_a_tie_for_the_most_names_every_leader() -> None:
    found = enumerate_field("query_data", RECORDS, "inspector", complete=True, reducer="most")
    assert found is not None and found.leaders == ("Dana Whitfield", "Marco Ruiz")


def test_the_most_frequent_value_of_a_complete_set_leads_alone() -> None:
    records = rows(*[{"level_number": n} for n in (3, 3, 4, 3, 2)])
    found = enumerate_field("query_data", records, "level_number", complete=True, reducer="most")
    assert found is not None and found.leaders == ("3",)


def test_a_sample_settles_no_leader() -> None:
    found = enumerate_field("query_data", RECORDS, "inspector", complete=False, reducer="most")
    assert found is not None and found.leaders == ()


@pytest.mark.parametrize(("reducer", "day"), [("latest", "2026-05-30"), ("earliest", "2025-11-04")])
def test_a_date_end_is_the_day_of_the_latest_or_earliest_record(reducer: str, day: str) -> None:
    found = enumerate_field("query_data", RECORDS, "created_at", complete=True, reducer=reducer)
    assert found is not None and found.leaders == (day,) and found.members == (day,)


def test_the_anchor_names_the_leaders_or_says_the_sample_does_not_settle_it() -> None:
    led = enumeration(
        "c1", "inspector", ["A", "B"], complete=True, relation="r", extreme="most", leaders=["A"]
    ).record()
    assert led == {
        "kind": "enumeration",
        "slot": "c1",
        "instruction": "Code read the most inspector from a field of every matching record:"
        " name the leaders below (all of them: a tie is a tie), state no tally.",
        # The extreme adds to what every enumeration carries; it replaces none of it.
        "field": "inspector",
        "members": ["A", "B"],
        "complete": True,
        "relation": "r",
        "extreme": "most",
        "leaders": ["A"],
    }
    unsettled = enumeration(
        "c1", "inspector", ["A", "B"], complete=False, relation="r", extreme="most"
    ).record()
    assert unsettled["leaders"] == [] and "do not settle" in unsettled["instruction"]
    plain = enumeration("c1", "inspector", ["A"], complete=True, relation="r").record()
    assert "extreme" not in plain and plain["instruction"].endswith("(r).")


def test_the_trades_behind_plan_are_read_from_every_progress_row() -> None:
    levels = rows(
        {
            "level_number": 1,
            "trades": [
                {"trade": "drywall", "planned_pct": 60, "actual_pct": 40},
                {"trade": "structure", "planned_pct": 90, "actual_pct": 95},
            ],
        },
        {"level_number": 2, "trades": [{"trade": "finishes", "planned_pct": 10, "actual_pct": 5}]},
    )
    assert asked_extreme("What is the progress on level 2?") == Extreme("trade", "behind")
    found = enumerate_field(
        "get_progress_summary", levels, "trade", complete=True, reducer="behind"
    )
    assert found is not None and found.leaders == ("drywall", "finishes")
    assert found.members == ("drywall", "finishes", "structure")
