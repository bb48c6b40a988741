"""The gold eval through the full stack: every case scored against corpus facts.

Cases kept red on purpose must stay red (each says why); any other case must
answer its slot with the right grade. A red case turning green is a finding
too: it means the system now claims something it cannot stand behind.
"""

from __future__ import annotations

import pytest

from harness.eval_run import report, run, score
from harness.gold import Case, gold_cases
from harness.stack import Stack

pytestmark = pytest.mark.e2e
CASES = gold_cases()


def test_the_eval_has_at_least_sixty_questions_with_computed_gold() -> None:
    assert len(CASES) >= 60 and len({c.id for c in CASES}) == len(CASES)
    assert all(c.red_reason is None or len(c.red_reason) > 20 for c in CASES)


@pytest.mark.parametrize("case", [pytest.param(c, id=c.id) for c in CASES])
def test_each_gold_case_scores_as_stated(stack: Stack, case: Case) -> None:
    (result,) = run(stack, [case])
    if case.red_reason:
        assert not result.slot_answered, f"{case.id} turned green: {result.detail}"
        assert result.grade_ok  # a red slot still carries the honest grade (a bound)
    else:
        assert result.passed, report([result])


def test_the_scorer_refuses_a_wrong_number() -> None:
    case = Case("t", "q", "EXACT", 24)
    from beacon.wire.sse import SseEvent

    refs = '{"turn_id":"t","seq":2,"citations":[],"counts":[{"grade":"EXACT","total":25}]}'
    done = '{"turn_id":"t","seq":3,"finish_reason":"stop","answer":"There are exactly 25."}'
    events = [SseEvent("references", "2", refs), SseEvent("done", "3", done)]
    assert not score(case, events).slot_answered
