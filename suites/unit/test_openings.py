"""Turns whose stream is opening go first: ``beacon.server.openings`` (issue 32)."""

from __future__ import annotations

import asyncio

import pytest

from beacon.server.openings import Openings


async def _settle(passes: int = 5) -> None:
    for _ in range(passes):
        await asyncio.sleep(0)


def _paused_turns(openings: Openings, count: int) -> tuple[list[int], list[asyncio.Task[None]]]:
    """``count`` turns waiting on ``openings``; each writes its number once let go."""
    gone: list[int] = []

    async def turn(n: int) -> None:
        await openings.wait()
        gone.append(n)

    return gone, [asyncio.create_task(turn(n)) for n in range(count)]


def test_a_turn_with_no_opening_beside_it_never_waits() -> None:
    async def scenario() -> None:
        openings = Openings()
        await asyncio.wait_for(openings.wait(), timeout=1)
        openings.begin().end()
        await asyncio.wait_for(openings.wait(), timeout=1)

    asyncio.run(scenario())


def test_a_paused_turn_goes_on_only_when_every_opening_has_ended() -> None:
    async def scenario() -> None:
        openings = Openings()
        first, second = openings.begin(), openings.begin()
        paused = asyncio.create_task(openings.wait())
        await _settle()
        assert not paused.done()
        first.end()
        await _settle()
        assert not paused.done(), "one turn is still opening"
        second.end()
        await asyncio.wait_for(paused, timeout=1)
        assert openings.count == 0

    asyncio.run(scenario())


def test_ending_an_opening_twice_ends_it_once() -> None:
    async def scenario() -> None:
        openings = Openings()
        mine, other = openings.begin(), openings.begin()
        mine.end()
        mine.end()  # the route that refused it and the hub may both end it
        assert openings.count == 1
        paused = asyncio.create_task(openings.wait())
        await _settle()
        assert not paused.done(), "the other turn's opening must still hold it"
        other.end()
        await asyncio.wait_for(paused, timeout=1)

    asyncio.run(scenario())


def test_paused_turns_go_on_one_per_event_loop_pass_oldest_first() -> None:
    async def scenario() -> None:
        openings = Openings()
        opening = openings.begin()
        order, tasks = _paused_turns(openings, 4)
        await _settle()
        opening.end()
        await asyncio.sleep(0)
        assert len(order) <= 1, f"{order}: all released in one pass"
        await asyncio.wait_for(asyncio.gather(*tasks), timeout=1)
        assert order == [0, 1, 2, 3]

    asyncio.run(scenario())


def test_a_new_opening_holds_the_turns_not_yet_released() -> None:
    async def scenario() -> None:
        openings = Openings()
        opening = openings.begin()
        gone, tasks = _paused_turns(openings, 3)
        await _settle()
        opening.end()  # the oldest is let go at once…
        late = openings.begin()  # …and a request arrives before the next pass
        await _settle(10)
        assert gone == [0]
        late.end()
        await asyncio.wait_for(asyncio.gather(*tasks), timeout=1)
        assert gone == [0, 1, 2]

    asyncio.run(scenario())


def test_a_turn_cancelled_while_paused_holds_nobody_up() -> None:
    async def scenario() -> None:
        openings = Openings()
        opening = openings.begin()
        first = asyncio.create_task(openings.wait())
        second = asyncio.create_task(openings.wait())
        await _settle()
        first.cancel()  # a turn cancelled while it waits (its client gone, a drain)
        await _settle()
        opening.end()
        with pytest.raises(asyncio.CancelledError):
            await first
        await asyncio.wait_for(second, timeout=1)
        # A turn arriving now finds nobody queued and nothing opening.
        await asyncio.wait_for(openings.wait(), timeout=1)

    asyncio.run(scenario())


def test_an_opening_that_never_ends_holds_the_others_back_only_for_its_time_limit() -> None:
    async def scenario() -> None:
        openings = Openings(hold_s=0.05)
        openings.begin()  # a start the store cannot take: never published
        paused = asyncio.create_task(openings.wait())
        await _settle()
        assert not paused.done()
        await asyncio.wait_for(paused, timeout=2)
        assert openings.count == 0

    asyncio.run(scenario())


def test_a_turns_own_opening_does_not_hold_it_back_but_anothers_does() -> None:
    async def scenario() -> None:
        openings = Openings()
        mine = openings.begin()
        # Its upstream session opens while its own `start` is stored and sent.
        await asyncio.wait_for(openings.wait(mine), timeout=1)
        other = openings.begin()
        paused = asyncio.create_task(openings.wait(mine))
        await _settle()
        assert not paused.done(), "another turn is opening"
        other.end()
        await _settle()
        assert not paused.done(), "held back by the other, it waits for every opening now"
        mine.end()
        await asyncio.wait_for(paused, timeout=1)

    asyncio.run(scenario())


def test_after_overlapping_openings_paused_turns_wait_until_none_began_for_a_quiet_moment() -> None:
    # Seconds, not milliseconds, so a loaded machine's scheduling cannot decide it.
    async def scenario() -> None:
        openings = Openings(quiet_s=1.0, quiet_max_s=10)
        first, second = openings.begin(), openings.begin()  # a burst: they overlap
        paused = asyncio.create_task(openings.wait())
        await _settle()
        first.end()
        second.end()
        await asyncio.sleep(0.5)
        assert not paused.done(), "released before the burst's quiet moment"
        late = openings.begin()  # one more request of the burst, inside the moment
        late.end()
        await asyncio.sleep(0.75)  # past the first moment's end, inside the second's
        assert not paused.done(), "a new opening begins the quiet moment again"
        await asyncio.wait_for(paused, timeout=5)
        # The burst is over: a turn arriving now does not wait.
        await asyncio.wait_for(openings.wait(), timeout=1)

    asyncio.run(scenario())


def test_a_lone_opening_or_one_after_another_never_waits_for_a_quiet_moment() -> None:
    async def scenario() -> None:
        openings = Openings(quiet_s=30)  # would time every wait below out
        for _ in range(3):  # turns one after another, none beside another
            opening = openings.begin()
            paused = asyncio.create_task(openings.wait())
            await _settle()
            opening.end()
            await asyncio.wait_for(paused, timeout=1)
            await asyncio.wait_for(openings.wait(), timeout=1)

    asyncio.run(scenario())


def test_a_quiet_moment_ends_within_its_bound_and_none_begins_for_as_long_after_it() -> None:
    async def scenario() -> None:
        loop = asyncio.get_running_loop()
        openings = Openings(quiet_s=0.1, quiet_max_s=0.5)
        first, second = openings.begin(), openings.begin()
        paused = asyncio.create_task(openings.wait())
        await _settle()
        first.end()
        second.end()
        began = loop.time()
        # Arrivals that never pause for the quiet moment's 100 ms, for four times its bound.
        while loop.time() - began < 2.0 and not paused.done():
            one, two = openings.begin(), openings.begin()
            one.end()
            two.end()
            await asyncio.sleep(0.02)
        assert paused.done(), "arrivals that never pause held the paused turn for good"
        assert loop.time() - began < 1.5
        # Right after it, overlapping openings begin no new quiet moment.
        third, fourth = openings.begin(), openings.begin()
        again = asyncio.create_task(openings.wait())
        await _settle()
        third.end()
        fourth.end()
        await _settle()
        assert again.done(), "a quiet moment began again at once"

    asyncio.run(scenario())
