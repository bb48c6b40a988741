"""What repeated questions hide: a turn's CPU for questions never asked before against
the same questions asked again (issue 32, turn overhead).

The other benches ask the demo's questions over and over, so whatever a turn builds
from its own question and evidence (a regular expression, a parse, a cached
lookup) is built once and found again from the second turn on: a per-turn cost
that a real user's new question pays, and that no ratio of theirs shows. On
2026-12-03 one was found that way (the narration guard compiled an alternation of
every protected value of the turn: 4.7–5.4 ms a turn that the bench never saw).

Here one stack answers each of a set of questions twice: pairs of a level's count and
a photo search (the shapes of ``turn_overhead``'s first two) about a level or a topic
no turn of this process has asked about — every level of three projects, every photo
topic of the corpus, alone and on a level. Block by block, a pair is asked *new*,
then the pair before it *again*: both kinds ask the very same questions, alternating,
so their results weigh the same and only what a process keeps from a question's
first asking tells them apart. Reported: the chat server's CPU per turn of each kind
(its process's user + system time from ``/proc``, read around each block: the clock
ticks in 10 ms, so a block's figure is coarse and their sum is not), each kind's
median wall time, and the ratio of CPU per turn, new to again. A ratio above ~1.05
says a turn pays, on a question it has not seen, for something the repeated benches
cannot see: find it (``py-spy`` on the server over new questions only) before
trusting their ratios.

    python -m bench.new_questions [--turns N]
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Sequence
from typing import Any

import httpx

from bench.common import format_ms, format_ratio, median, post_turn, turns_main
from bench.concurrency import cpu_seconds
from bench.load import chat_pid
from bench.turn_overhead import QUESTIONS, USERS
from harness.stack import Stack, running_stack
from stub_server.photo_text import TOPICS

NAME = "new_questions"
WARM = QUESTIONS[:2]  # a level's count, a photo search: the process's first uses
# The corpus's projects and their levels (stub_server/corpus.py); level 3 of Harbor
# Tower is the warm-up's.
LEVELS = (("Harbor Tower", 14), ("Cedar School", 6), ("Maple Clinic", 4))
PHOTO_LEVELS = (1, 2)
Pair = tuple[str, str]  # a level's count, a photo search
SETTLE_S = 0.05  # the last turn's saves and frames, after its stream ends, in its block


def new_questions() -> list[Pair]:
    """Pairs (a count, a photo search), none of them the warm-up's questions."""
    counts = [
        f"How many open safety findings are on level {level} of {project}?"
        for project, levels in LEVELS
        for level in range(1, levels + 1)
        if (project, level) != ("Harbor Tower", 3)
    ]
    photos = [f"Photos of {topic} in Harbor Tower" for topic in TOPICS] + [
        f"Photos of {topic} on level {level} in Harbor Tower"
        for topic in TOPICS
        for level in PHOTO_LEVELS
    ]
    return list(zip(counts, photos, strict=False))


def schedule(pairs: Sequence[Pair]) -> list[tuple[str, Pair]]:
    """new 1, new 2, again 1, new 3, again 2, …, again n: the kinds alternate after the
    first block, and each pair is asked again one block after it was new."""
    blocks: list[tuple[str, Pair]] = []
    for index in range(len(pairs) + 1):
        if index < len(pairs):
            blocks.append(("new", pairs[index]))
        if index > 0:
            blocks.append(("again", pairs[index - 1]))
    return blocks


def run(*, turns: int = 0) -> dict[str, Any]:
    """``turns``: the pairs asked (0: all there are); each is asked twice."""
    with running_stack() as stack:
        return measure(stack, pairs=turns or len(new_questions()))


def measure(stack: Stack, *, pairs: int) -> dict[str, Any]:
    there = new_questions()
    if not 0 < pairs <= len(there):
        raise ValueError(f"pairs must be 1..{len(there)} (the new questions there are)")
    tokens = [stack.token(sub=f"bench-new-{index}") for index in range(USERS)]
    return asyncio.run(_measure(stack, tokens, there[:pairs]))


async def _measure(stack: Stack, tokens: list[str], pairs: Sequence[Pair]) -> dict[str, Any]:
    cpu_s = {"new": 0.0, "again": 0.0}
    walls: dict[str, list[float]] = {"new": [], "again": []}
    failed: list[str] = []
    async with httpx.AsyncClient() as http:
        for question in WARM * 2:  # the process's first uses, paid once
            run = await post_turn(http, stack.chat_url, tokens[0], question)
            if (problem := run.problem) is not None:
                raise RuntimeError(f"warm-up turn failed ({question!r}): {problem}")
        pid = chat_pid(stack)
        if pid is None:
            raise RuntimeError("no process listens on the chat port")
        turn = 0
        for kind, pair in schedule(pairs):
            before = cpu_seconds(pid)
            for question in pair:
                run = await post_turn(http, stack.chat_url, tokens[turn % len(tokens)], question)
                turn += 1
                if (problem := run.problem) is not None:
                    failed.append(f"{question}: {problem}")
                else:
                    walls[kind].append(run.total_s)
            await asyncio.sleep(SETTLE_S)
            cpu_s[kind] += cpu_seconds(pid) - before
    per_turn = {kind: cpu_s[kind] * 1000 / (2 * len(pairs)) for kind in cpu_s}
    return {
        "bench": NAME,
        "turns_each_kind": 2 * len(pairs),
        "questions": [question for pair in pairs for question in pair],
        "new_cpu_ms_per_turn": per_turn["new"],
        "again_cpu_ms_per_turn": per_turn["again"],
        "cpu_ratio": per_turn["new"] / per_turn["again"] if per_turn["again"] else float("nan"),
        "new_median_s": median(walls["new"]) if walls["new"] else float("nan"),
        "again_median_s": median(walls["again"]) if walls["again"] else float("nan"),
        "failed_turns": len(failed),
        "failures": failed[:5],
        "ok": not failed,
    }


def lines(figures: dict[str, Any]) -> list[str]:
    return [
        f"new questions: {figures['turns_each_kind']} questions, each asked new and again"
        " (a level's count, a photo search), the kinds alternating",
        f"  new    CPU {figures['new_cpu_ms_per_turn']:.1f} ms a turn"
        f"  median {format_ms(figures['new_median_s'])}",
        f"  again  CPU {figures['again_cpu_ms_per_turn']:.1f} ms a turn"
        f"  median {format_ms(figures['again_median_s'])}",
        f"  ratio of CPU, new to again  {format_ratio(figures['cpu_ratio'])}"
        " (above ~1.05: a cost the repeated benches cannot see)",
        f"  failed turns {figures['failed_turns']}",
    ]


def main(argv: list[str] | None = None) -> int:
    return turns_main("python -m bench.new_questions", run, lines, argv, turns=0)


if __name__ == "__main__":
    sys.exit(main())
