"""The one clock relative dates resolve against ("last week", "先週", "letzten Monat").

The chat server's constraint reader, the stub upstream and the embedded rules
model must agree on what "last week" means, or a correct planner would look
wrong. All three call ``today()``: the UTC date, unless ``BEACON_TODAY``
(YYYY-MM-DD) pins it — for tests, demos and a corpus frozen in time. ``beacon
up`` passes its environment to every process it starts, so one setting holds
for the whole stack.
"""

from __future__ import annotations

import os
from datetime import UTC, date, datetime

from beacon.lexicon.errors import ClockSettingError

CLOCK_ENV = "BEACON_TODAY"


def today(environ: dict[str, str] | None = None) -> date:
    """The date relative phrases are anchored to (``BEACON_TODAY`` or the UTC date)."""
    setting = (os.environ if environ is None else environ).get(CLOCK_ENV, "").strip()
    if not setting:
        return datetime.now(UTC).date()
    try:
        return date.fromisoformat(setting)
    except ValueError:
        raise ClockSettingError(
            f"{CLOCK_ENV}={setting!r} is not a date: set it as YYYY-MM-DD, or unset it"
        ) from None
