"""The five locales of SPEC §4, defined once: every table of this package is keyed by
them, and the wire's request model (``beacon.wire.turns``) validates against them."""

from __future__ import annotations

from typing import Literal, get_args

Locale = Literal["en", "ko", "ja", "de", "es"]
LOCALES: tuple[Locale, ...] = get_args(Locale)
DEFAULT_LOCALE: Locale = "en"
