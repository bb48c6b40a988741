"""The lexicon's one exception root."""

from __future__ import annotations


class LexiconError(Exception):
    """A setting of the locale data is not usable (the message names the fix)."""


class ClockSettingError(LexiconError):
    """``BEACON_TODAY`` is set but is not a YYYY-MM-DD date."""
