"""The adjudication package's one exception root.

    AdjudicationError          the system is broken (a bug, a bad table)
     └── SlotError             a count slot names no graded count

A verdict of "no" (UNKNOWN, failure, empty) is never an exception: it is a value.
"""


class AdjudicationError(Exception):
    """Root of every error raised by ``beacon.adjudication``."""


class SlotError(AdjudicationError):
    """A slot in narration refers to a count the server never graded."""
