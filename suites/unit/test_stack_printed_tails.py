"""A failed test's report carries the end of what each running stack it used
printed, and nothing for values that are not stacks or stacks that printed nothing."""

from __future__ import annotations

from harness.stack import Stack, printed_tails


def _stack(lines: list[str]) -> Stack:
    return Stack(
        "http://127.0.0.1:1", "http://127.0.0.1:2/mcp", "http://127.0.0.1:3/v1", "d", lines
    )


def test_a_stacks_last_lines_are_carried_under_its_fixtures_name() -> None:
    printed = [f"line {n}" for n in range(100)]
    sections = printed_tails({"stack": _stack(printed), "token": "t"}, lines=3)
    assert sections == [("stack: beacon up printed (last 3 lines)", "line 97\nline 98\nline 99")]


def test_lines_printed_after_the_stack_started_are_read_when_the_test_fails() -> None:
    printed: list[str] = ["ready"]
    stack = _stack(printed)
    printed.append("turn t_1 failed: llm_unavailable: model endpoint unreachable")
    [(_, text)] = printed_tails({"stack": stack})
    assert text.endswith("llm_unavailable: model endpoint unreachable")


def test_a_silent_stack_or_no_stack_adds_no_section() -> None:
    assert printed_tails({"stack": _stack([]), "page": object()}) == []
