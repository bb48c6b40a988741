"""``beacon verify`` against small frame-protocol servers, one honest and many dishonest
(``verify_frame_servers.py``): verify must turn exactly the check that names each flaw
red, and nothing else. The honest one is green (its unverifiable checks are reported as
not verified, never passed). The same servers carry the baseline semantics.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from verify_frame_servers import DISHONEST, UNVERIFIABLE, failed_checks, frame_server, verify_at

from harness.inproc import serving
from harness.verify.model import Status


@pytest.fixture(scope="module")
def honest() -> Iterator[str]:
    with serving(lambda _origin: frame_server()) as origin:
        yield origin


def test_the_honest_server_is_green_and_what_it_cannot_reach_is_not_verified(honest: str) -> None:
    report = verify_at(honest)
    assert report.of(Status.FAIL) == [], [(r.id, r.message) for r in report.of(Status.FAIL)]
    assert report.exit_code == 0
    assert {r.check for r in report.of(Status.NOT_VERIFIED)} == UNVERIFIABLE | {
        c
        for c in {r.check for r in report.results}
        if c.startswith("scenario.") or c == "controlled.scenarios"
    }
    assert report.tally()["pass"] >= 25


@pytest.mark.parametrize("flaw", list(DISHONEST))
def test_each_dishonest_server_turns_exactly_its_check_red(flaw: str) -> None:
    with serving(lambda _origin: frame_server(flaw)) as origin:
        report = verify_at(origin)
    assert failed_checks(report) == {DISHONEST[flaw]}, [
        (r.id, r.message) for r in report.of(Status.FAIL)
    ]
    assert report.exit_code == 1
    failure = report.of(Status.FAIL)[0]
    assert failure.message and failure.evidence  # the report says what and shows it


def test_the_overclaim_is_named_with_its_sentence_and_rule() -> None:
    with serving(lambda _origin: frame_server("overclaim")) as origin:
        report = verify_at(origin, checks=("prose.count-forms",))
    first = report.of(Status.FAIL)[0]
    assert first.evidence["sentences"][0] == {
        "rule": "free_count",
        "token": "10",
        "sentence": "I found 10 photos of missing hard hats.",
        "judged_as": "I found 10 photos of missing hard hats.",
    }
    assert first.evidence["standing"]["counts"][0]["grade"] == "LOWER_BOUND"


# --- the baseline ------------------------------------------------------------------------------


def test_a_baselined_failure_passes_the_run(tmp_path: Path) -> None:
    baseline = tmp_path / "baseline.txt"
    baseline.write_text("# known: the narrator overclaims\nprose.count-forms\n")
    with serving(lambda _origin: frame_server("overclaim")) as origin:
        report = verify_at(origin, baseline=baseline, baseline_entries=["prose.count-forms"])
    assert report.exit_code == 0
    assert report.of(Status.FAIL) == []
    assert {r.check for r in report.of(Status.BASELINED)} == {"prose.count-forms"}


def test_a_baselined_check_that_now_passes_fails_the_run(honest: str) -> None:
    report = verify_at(honest, baseline_entries=["prose.count-forms::photos-en"])
    assert report.exit_code == 1
    (stale,) = report.of(Status.STALE)
    assert stale.id == "prose.count-forms::photos-en"
    assert "passes" in stale.message


def test_a_baseline_entry_naming_nothing_is_reported(honest: str) -> None:
    report = verify_at(honest, checks=("frames",), baseline_entries=["prose.absence::nowhere"])
    assert report.unmatched_baseline == ["prose.absence::nowhere"]
    assert report.exit_code == 0


# --- the installed command: exit codes and its three outputs --------------------------------------
