"""The protocol-markup guard rejects an answer that is a tool call, nothing else."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from beacon.adjudication.guard.markup import starts_with_protocol_markup

DSML = (
    '<｜DSML｜function_calls>\n<｜DSML｜invoke name="search_photos">\n'
    "</｜DSML｜invoke>\n</｜DSML｜function_calls>"
)


@pytest.mark.parametrize(
    ("answer", "rejected"),
    [
        pytest.param(DSML, True, id="markup-first"),
        pytest.param("   \n\n" + DSML, True, id="markup-after-blank-lines"),
        pytest.param(DSML.replace("｜", "|"), True, id="ascii-pipe-spelling"),
        pytest.param("< | DSML | function_calls >", True, id="spaced-out-markup"),
        pytest.param(
            "Let me check the photos first.\n\n" + DSML,
            True,
            id="narration-then-bare-markup-on-a-following-line",
        ),
        pytest.param('<tool_call>{"name": "x"}</tool_call>', True, id="generic-tool-call"),
        pytest.param(
            "The endpoint wrote <｜DSML｜function_calls> into its answer.",
            False,
            id="prose-mentioning-the-syntax",
        ),
        pytest.param(
            "Here is what it looked like:\n```\n" + DSML + "\n```", False, id="fenced-example"
        ),
        pytest.param("x" * 90 + "\n" + DSML, False, id="markup-beyond-the-window"),
        pytest.param("x" * 78 + "\n" + DSML, True, id="a-line-starting-at-79-is-inside"),
        pytest.param("x" * 79 + "\n" + DSML, False, id="a-line-starting-at-80-is-outside"),
        pytest.param(" " * 85 + DSML, True, id="the-window-starts-after-leading-whitespace"),
        pytest.param("ok\n" * 30 + DSML, False, id="many-short-lines-use-up-the-window"),
        pytest.param("There are exactly 24 open safety findings.", False, id="plain-answer"),
        pytest.param("", False, id="empty"),
    ],
)
def test_markup_at_the_start_of_an_answer_is_rejected(answer: str, rejected: bool) -> None:
    assert starts_with_protocol_markup(answer) is rejected


def test_a_fence_that_closes_does_not_hide_later_markup() -> None:
    assert starts_with_protocol_markup("```\nx\n```\n" + DSML)


@given(st.text(alphabet=st.characters(blacklist_characters="<`"), max_size=200))
def test_text_without_angle_brackets_or_fences_is_never_rejected(text: str) -> None:
    assert not starts_with_protocol_markup(text)
