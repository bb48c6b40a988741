"""One counted result as the narration guard reads it: the one record a count reaches
the guard in, for rendering its slots and for the standing a sentence is judged on."""

from __future__ import annotations

from dataclasses import KW_ONLY, dataclass

from beacon.adjudication.counts import is_complete, is_wholly_shown
from beacon.adjudication.emptiness import Emptiness
from beacon.wire.frames import Grade


@dataclass(frozen=True, slots=True)
class Counted:
    slot: str
    grade: Grade
    value: int | float | None
    shown: int  # how many of its items are on screen: what ``{{shown:slot}}`` renders
    _: KW_ONLY
    # Beyond what came back (a set read whole from every record has none, whatever
    # its page said): the rows "complete" must not overlook.
    has_more: bool = False
    emptiness: Emptiness = "unknown"
    may_say_none: bool = False  # an accounted empty result: "there are none" has standing
    # What the question named that this count left out: a count of another set is
    # never rendered inside the model's sentence (code says what it counts instead).
    unapplied: tuple[str, ...] = ()

    @property
    def complete(self) -> bool:
        return is_complete(self.grade, self.value, self.has_more)

    @property
    def wholly_shown(self) -> bool:
        """Complete and every item on screen: what the cards show is the set."""
        return is_wholly_shown(self.grade, self.value, self.has_more, self.shown)
