"""The adjudication package's one exception root.

    AdjudicationError          the system is broken (a bug, a bad table)
     └── DuplicateRowId        two rows of one transition table share an id
                               (tables.py: raised while a table is built, at import)

A verdict of "no" (UNKNOWN, failure, empty, illegal transition) is never an
exception: it is a value. Nothing in this package raises on upstream input.
"""


class AdjudicationError(Exception):
    """Root of every error raised by ``beacon.adjudication``."""
