"""The verifier's reading of published prose: the narration guard's rules, in five locales.

A published answer has its slots rendered; the verifier turns each form a
count's grade permits back into a slot and asks ``beacon.adjudication.judge``.
What the guard would drop in the model's text is what verify refuses in a
target's published text.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from beacon.wire.sse import SseEvent
from harness.verify.baseline import BaselineError, load_baseline
from harness.verify.prose import denial_restated, judge_prose, stated_without


def _frames(
    *counts: dict[str, object], citations: tuple[dict[str, object], ...] = ()
) -> list[SseEvent]:
    refs = {"turn_id": "t", "seq": 1, "citations": list(citations), "counts": list(counts)}
    return [SseEvent("references", "1", json.dumps(refs))]


def _count(
    grade: str, total: int | None, displayed: int = 10, has_more: bool = True
) -> dict[str, object]:
    return {
        "source": "search_photos",
        "grade": grade,
        "total": total,
        "displayed": displayed,
        "has_more": has_more,
    }


LOWER = _frames(_count("LOWER_BOUND", 3000))
EXACT = _frames(_count("EXACT", 24, has_more=False))
UNKNOWN = _frames(_count("UNKNOWN", None, displayed=0, has_more=False))


@pytest.mark.parametrize(
    ("locale", "published"),
    [
        ("en", "Harbor Tower has at least 3,000 panoramas. These 10 are shown."),
        ("de", "Harbor Tower hat mindestens 3.000 Panoramen. Diese 10 werden gezeigt."),
        ("es", "Harbor Tower tiene al menos 3.000 panoramas. Estos 10 se muestran."),
        ("ko", "Harbor Tower에는 최소 3,000개의 파노라마가 있습니다."),
        ("ja", "Harbor Towerには少なくとも3,000件のパノラマがあります。"),
    ],
)
def test_a_lower_bound_said_as_its_grade_permits_passes(locale: str, published: str) -> None:
    assert judge_prose(published, LOWER, locale) == []


@pytest.mark.parametrize(
    ("locale", "published", "token"),
    [
        ("en", "I found 3,000 panoramas.", "3,000"),
        ("en", "There are exactly 3,000 panoramas.", "3,000"),
        ("de", "Es gibt 3.000 Panoramen.", "3.000"),
        ("es", "Encontré diez panoramas.", "diez"),
        ("ko", "파노라마 열 장을 찾았습니다.", "열 장"),
        ("ja", "パノラマを十枚見つけました。", "十"),
    ],
)
def test_a_count_typed_outside_its_form_is_a_free_count(
    locale: str, published: str, token: str
) -> None:
    (finding,) = judge_prose(published, LOWER, locale)
    assert (finding.rule, finding.token) == ("free_count", token)


def test_an_exact_complete_count_may_be_said_bare_or_exactly() -> None:
    assert judge_prose("There are 24 findings. Exactly 24, in total.", EXACT, "en") == []


def test_under_unknown_no_number_at_all_and_no_none() -> None:
    assert [f.rule for f in judge_prose("I saw 3 of them.", UNKNOWN, "en")] == [
        "number_under_unknown"
    ]
    assert [f.rule for f in judge_prose("There are none.", UNKNOWN, "en")] == ["absence_claim"]
    assert [f.rule for f in judge_prose("All of them are here.", LOWER, "en")] == [
        "completeness_claim"
    ]


def test_numbers_the_evidence_carries_as_names_are_not_counts() -> None:
    card = {
        "id": "ph-0042",
        "title": "Level 7: PPE breach",
        "date": "2024-03-12",
        "level": "Level 7",
    }
    frames = _frames(_count("LOWER_BOUND", 173), citations=(card,))
    assert judge_prose("Photo ph-0042 on Level 7 was taken on March 12, 2024.", frames, "en") == []
    assert [f.rule for f in judge_prose("Level 7 has 12 of them.", frames, "en")] == ["free_count"]


def test_a_denial_restated_in_licensing_words_is_found_only_beside_a_denial() -> None:
    denied = [SseEvent("notice", "2", json.dumps({"kind": "denied", "text": "not available"}))]
    prose = "Your licence tier does not include photo search. Ask your admin."
    assert [f.rule for f in denial_restated(prose, denied)] == ["denial"]
    assert denial_restated(prose, LOWER) == []


def test_baseline_files_in_each_format(tmp_path: Path) -> None:
    text = tmp_path / "b.txt"
    text.write_text("# known\nprose.count-forms::photos-ja  # ticket 9\n\nauth.expired\n")
    assert load_baseline(text) == ["prose.count-forms::photos-ja", "auth.expired"]
    listed = tmp_path / "b.json"
    listed.write_text(json.dumps({"failures": ["frames.seq"]}))
    assert load_baseline(listed) == ["frames.seq"]
    for bad in ('{"failures": "frames.seq"}', "[1]", "{not json", "frames.nope"):
        (tmp_path / "bad").write_text(bad)
        with pytest.raises(BaselineError):
            load_baseline(tmp_path / "bad")
    with pytest.raises(BaselineError):
        load_baseline(tmp_path / "missing")


def test_a_count_said_without_its_phrase_is_found_and_one_said_with_it_is_not() -> None:
    text = "The count without “overdue”: exactly 1,800. There are 1800 findings. 41 are open."
    assert stated_without(text, [1800], "overdue") == ["There are 1800 findings."]
    assert stated_without(text, [41, 7], "open") == []
