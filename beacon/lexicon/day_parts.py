"""The hours a time-of-day phrase names ("in the morning", "nachts", "午前", "before 9 am").

A time of day is a date constraint with hours instead of a window (dates.py): only a
tool that takes hours can apply it (panoramas carry their capture time).
"""

from __future__ import annotations

import re

# The hours each time-of-day word names, every locale's words in one row.
DAY_PARTS: tuple[tuple[str, tuple[str, str]], ...] = (
    (r"in\s+the\s+morning|morgens|vormittags?|por\s+la\s+mañana|아침|朝", ("06:00", "11:59")),
    (r"in\s+the\s+afternoon|nachmittags?|por\s+la\s+tarde", ("12:00", "17:59")),
    (r"in\s+the\s+evening|abends|저녁|夕方", ("18:00", "21:59")),
    (r"at\s+night|nachts|por\s+la\s+noche|de\s+madrugada|밤|夜間", ("22:00", "05:59")),
    (r"오전|午前", ("00:00", "11:59")),
    (r"오후|午後", ("12:00", "23:59")),
)
_CLOCK = re.compile(r"(before|after)\s+(\d{1,2})\s*(am|pm|a\.m\.|p\.m\.)", re.IGNORECASE)


def day_hours(phrase: str) -> tuple[str, str] | None:
    """The inclusive hours a time-of-day phrase names, or None if it names none."""
    clock = _CLOCK.fullmatch(phrase.strip())
    if clock is not None:
        hour = int(clock.group(2)) % 12 + (12 if clock.group(3).lower().startswith("p") else 0)
        if clock.group(1).lower() == "before":
            return ("00:00", f"{hour - 1:02d}:59") if hour > 0 else None
        return f"{hour:02d}:00", "23:59"
    for pattern, hours in DAY_PARTS:
        if re.fullmatch(pattern, phrase.strip(), re.IGNORECASE):
            return hours
    return None
