"""The vocabulary gate: the planner and responder prompts carry no licensing words.

What the caller may call is decided in code (``beacon.policy``); a model that
has never read about tiers or plans cannot narrate them, bargain over them or
tell a user to upgrade. The word list is data; each entry says what it catches.

Left out on purpose: the capability ids that are also plain construction words
(``core``, ``documents``, ``progress``, ``bim``, ``analytics``) — the prompts may
need them in their domain sense, and they say nothing about access. "plan" is
caught only as a commercial noun: the planner prompt "plans tool calls", and
construction has floor plans.
"""

from __future__ import annotations

import pytest

from beacon.loop.prompts import PLANNER_PROMPT, RESPONDER_PROMPT, turn_block
from beacon.policy import DENIAL_TEMPLATES
from beacon.policy.vocabulary import PATTERNS

SAMPLE_DIRECTORY = [
    {"id": "prj-harbor-tower", "name": "Harbor Tower"},
    {"id": "prj-maple-clinic", "name": "Maple Clinic"},
    {"id": "prj-cedar-school", "name": "Cedar School"},
    {"id": "prj-riverside-depot", "name": "Riverside Depot"},
]
SAMPLE_VIEW = {
    "project_id": "prj-harbor-tower",
    "project_name": "Harbor Tower",
    "level": "Level 3",
    "panorama_id": "pano-ht-0001",
}

PROMPTS = [
    pytest.param(PLANNER_PROMPT, id="planner"),
    pytest.param(RESPONDER_PROMPT, id="responder"),
    pytest.param(turn_block(SAMPLE_DIRECTORY, SAMPLE_VIEW), id="turn-block-with-view"),
    pytest.param(turn_block([], None), id="turn-block-empty"),
]


def violations(text: str) -> list[str]:
    return [
        f"{rule}: {match.group(0)!r}"
        for rule, pattern in PATTERNS
        for match in pattern.finditer(text)
    ]


@pytest.mark.parametrize("text", PROMPTS)
def test_the_prompt_carries_no_licensing_vocabulary(text: str) -> None:
    assert violations(text) == []


@pytest.mark.parametrize(
    "sentence",
    [
        pytest.param("Upgrade to Enterprise to unlock photo search.", id="upsell"),
        pytest.param("Only callers on the professional tier may search documents.", id="tier"),
        pytest.param("Your plan does not include this.", id="your-plan"),
        pytest.param("This needs a licence; check the subscription.", id="licence"),
        pytest.param("Never call tools the user lacks the capability for.", id="capability"),
        pytest.param("Do not call search_photos without photo_ai.", id="capability-id"),
        pytest.param("Explain permission errors politely.", id="permission"),
        pytest.param("essentials users see core tools only", id="tier-name"),
    ],
)
def test_the_gate_catches_licensing_sentences(sentence: str) -> None:
    assert violations(sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        pytest.param("You plan tool calls for questions.", id="plan-as-a-verb"),
        pytest.param("Show the floor plans of level 3.", id="floor-plans"),
        pytest.param("Search documents and report progress per level.", id="domain-words"),
        pytest.param("the form its grade permits", id="permits-is-not-permission"),
    ],
)
def test_the_gate_lets_domain_language_through(sentence: str) -> None:
    assert violations(sentence) == []


def test_the_english_denial_copy_would_fail_the_gate() -> None:
    """The user-facing notice names the plan: that is why code writes it, never the model."""
    assert violations(DENIAL_TEMPLATES["en"])
