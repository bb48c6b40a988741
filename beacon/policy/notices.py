"""The denial notice: which sentence of the denial copy (``beacon.lexicon.denials``) a
blocked call gets, in the turn's locale (an unknown locale reads as English).

The user-facing copy may name the capability (the user needs to know what to
ask for); the prompts may not (the model must not narrate or bargain over access).
"""

from __future__ import annotations

# The copy lives with the other locale data; re-exported for `beacon.policy`'s surface.
from beacon.lexicon.denials import CAPABILITY_LABELS as CAPABILITY_LABELS
from beacon.lexicon.denials import DENIAL_TEMPLATES as DENIAL_TEMPLATES
from beacon.lexicon.denials import UNAVAILABLE_TEXT as UNAVAILABLE_TEXT

# One definition (the lexicon's); re-exported for `beacon.policy.LOCALES`.
from beacon.lexicon.locales import DEFAULT_LOCALE as DEFAULT_LOCALE
from beacon.lexicon.locales import LOCALES as LOCALES


def _locale(locale: str) -> str:
    return locale if locale in LOCALES else DEFAULT_LOCALE


def capability_label(capability: str, locale: str = DEFAULT_LOCALE) -> str:
    labels = CAPABILITY_LABELS.get(capability)
    return labels[_locale(locale)] if labels is not None else capability


def denial_notice(capability: str | None, locale: str = DEFAULT_LOCALE) -> str:
    """The ``notice`` text (kind ``denied``) for a blocked call."""
    loc = _locale(locale)
    if capability is None or capability not in CAPABILITY_LABELS:
        return UNAVAILABLE_TEXT[loc]
    return DENIAL_TEMPLATES[loc].format(label=capability_label(capability, loc))
