"""The counter-questions code asks before anything runs, read from the question alone."""

from __future__ import annotations

import pytest

from beacon.adjudication.constraints import Constraint, read_constraints
from beacon.lexicon.clock import today
from beacon.loop.offers import (
    Offer,
    comparison_offer,
    one_sided_level,
    partial_offer,
    portfolio_offer,
)

DIRECTORY = [
    {"id": "prj-harbor-tower", "name": "Harbor Tower"},
    {"id": "prj-maple-clinic", "name": "Maple Clinic"},
]
PROJECTS = {p["id"]: p["name"] for p in DIRECTORY}
PROFESSIONAL = frozenset({"core", "documents", "progress"})


def _photos_need_photo_ai(part: str) -> bool:
    return any(w in part.lower() for w in ("photo", "foto", "사진", "写真"))


def offer(
    question: str, locale: str = "en", denied: tuple[str, ...] = ("analytics",)
) -> Offer | None:
    return partial_offer(
        question,
        locale,
        denied=denied,
        granted=PROFESSIONAL,
        constraints=read_constraints(question, projects=DIRECTORY, today=today()),
        projects=PROJECTS,
        needs_denied=_photos_need_photo_ai,
    )


@pytest.mark.parametrize(
    ("question", "locale", "reply"),
    [
        (
            "How many open safety findings and how many photos of missing hard hats are "
            "there in Harbor Tower?",
            "en",
            "List the open safety findings in Harbor Tower",
        ),
        (
            "How many open safety findings are in Harbor Tower?",
            "en",
            "List the open safety findings in Harbor Tower",
        ),
        (
            "Wie viele offene Sicherheitsmängel und wie viele Fotos gibt es in Harbor Tower?",
            "de",
            "Liste offene Sicherheitsmängel in Harbor Tower auf",
        ),
        (
            "¿Cuántos hallazgos de seguridad abiertos y cuántas fotos hay en Harbor Tower?",
            "es",
            "Lista hallazgos de seguridad abiertos en Harbor Tower",
        ),
        (
            "Harbor Tower의 미해결 안전 지적 사항은 몇 건이고, 안전모 사진은 몇 장인가요?",
            "ko",
            "Harbor Tower의 미해결 안전 지적 사항 목록을 보여 주세요",
        ),
        (
            "Harbor Towerの未対応の安全指摘は何件、ヘルメットの写真は何枚ありますか?",
            "ja",
            "Harbor Towerの未対応の安全指摘を一覧表示してください",
        ),
    ],
)
def test_the_feasible_part_is_offered_as_a_listing_in_the_question_locale(
    question: str, locale: str, reply: str
) -> None:
    found = offer(question, locale, denied=("photo_ai", "analytics"))
    assert found is not None and found.kind == "partial_entitlement"
    (option,) = found.options
    assert (option.reply, option.label, option.recommended) == (reply, reply, True)
    assert reply in found.text and reply in found.narration


def test_the_offer_names_each_missing_capability_once_and_the_narration_none() -> None:
    found = offer(
        "How many open safety findings and how many photos are in Harbor Tower?",
        denied=("photo_ai", "analytics", "analytics"),
    )
    assert found is not None
    assert "Photo AI and Analytics, which your plan" in found.text
    assert "Photo AI" not in found.narration and found.narration.endswith("Shall I proceed?")


def test_nothing_is_offered_when_no_part_is_feasible_or_nothing_was_denied() -> None:
    assert offer("Show me photos of hard hats in Harbor Tower", denied=("photo_ai",)) is None
    # Panoramas are listed only by query_data, which needs Analytics.
    assert offer("How many panoramas are in Harbor Tower?") is None
    assert offer("How many open safety findings are in Harbor Tower?", denied=()) is None
    assert offer("What is the weather like?") is None


def test_a_feasible_part_without_a_project_is_offered_without_one() -> None:
    found = offer("How many open findings are there?")
    assert found is not None
    assert found.options[0].reply == "List the open findings"


def test_a_portfolio_question_offers_every_project_with_the_first_recommended() -> None:
    question = "How many open findings are there?"
    found = portfolio_offer(
        question,
        "en",
        constraints=read_constraints(question, projects=DIRECTORY, today=today()),
        directory=DIRECTORY,
    )
    assert found is not None and found.kind == "portfolio"
    assert [(o.label, o.reply, o.recommended) for o in found.options] == [
        ("Harbor Tower", "How many open findings are there — in Harbor Tower", True),
        ("Maple Clinic", "How many open findings are there — in Maple Clinic", False),
    ]
    assert found.narration == found.text


@pytest.mark.parametrize(
    ("question", "directory"),
    [
        ("How many open findings are in Maple Clinic?", DIRECTORY),  # names its project
        ("How many open findings are there?", DIRECTORY[:1]),  # one project is all there is
        ("What can you do?", DIRECTORY),  # asks about no records
    ],
)
def test_no_portfolio_offer_where_the_project_is_not_in_doubt(
    question: str, directory: list[dict[str, str]]
) -> None:
    constraints = read_constraints(question, projects=directory, today=today())
    assert portfolio_offer(question, "en", constraints=constraints, directory=directory) is None


def test_a_portfolio_reply_names_the_project_in_each_locale() -> None:
    question = "Wie viele offene Befunde gibt es?"
    found = portfolio_offer(
        question,
        "de",
        constraints=read_constraints(question, projects=DIRECTORY, today=today()),
        directory=DIRECTORY,
    )
    assert found is not None
    assert found.options[1].reply == "Wie viele offene Befunde gibt es — im Projekt Maple Clinic"
    assert found.text.startswith("Das kann jedes Ihrer Projekte")


def _side(question: str) -> Constraint | None:
    return one_sided_level(question, read_constraints(question, projects=DIRECTORY, today=today()))


def test_a_comparison_of_a_qualified_level_offers_no_other_side() -> None:
    # "above level 2" is no level to set beside another: nothing to offer, no crash.
    assert _side("Compare open findings above level 2 of Harbor Tower") is None


def test_a_one_sided_comparison_offers_the_nearest_levels_the_one_above_first() -> None:
    question = "Compare open findings on level 2 of Harbor Tower"
    side = _side(question)
    assert side is not None
    found = comparison_offer(question, "en", side=side, levels=[1, 2, 3, 4, 5, 6])
    assert found is not None and found.kind == "comparison"
    assert [(o.label, o.recommended) for o in found.options] == [
        ("Level 3", True),
        ("Level 1", False),
        ("Level 4", False),
        ("Level 5", False),
    ]
    assert found.options[0].reply == "Compare open findings on level 2 and Level 3 of Harbor Tower"


def test_a_comparison_reply_adds_the_side_in_the_question_locale() -> None:
    question = "Harbor Tower 2층의 미해결 지적 사항을 비교해 주세요"
    side = _side(question)
    assert side is not None
    found = comparison_offer(question, "ko", side=side, levels=[1, 2, 3])
    assert found is not None
    assert found.options[0].reply == "Harbor Tower 2층 및 3층의 미해결 지적 사항을 비교해 주세요"
    assert found.text == "어느 층과 비교할까요?"


@pytest.mark.parametrize(
    "question",
    [
        "Compare open findings on level 2 and level 3 of Harbor Tower",  # both sides named
        "List open findings on level 2 of Harbor Tower",  # no comparison
        "Compare open findings in Harbor Tower",  # no side at all
    ],
)
def test_no_side_is_offered_where_the_comparison_is_not_one_sided(question: str) -> None:
    assert _side(question) is None


def test_a_project_with_no_other_level_gets_no_comparison_offer() -> None:
    question = "Compare open findings on level 2 of Harbor Tower"
    side = _side(question)
    assert side is not None
    assert comparison_offer(question, "en", side=side, levels=[2]) is None
