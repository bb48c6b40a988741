"""How a count slot is worded in each locale, by the count's grade (SPEC §3), and the
mark each locale writes between thousands.

Keyed by the grade's value ("EXACT", …): ``Grade`` is a ``StrEnum`` in adjudication,
which this leaf may not import, and ``PHRASES[locale][grade]`` reads the same either
way. UNKNOWN has no phrase: no number is uttered for it. The panel's count line reads
these through its generated vocabulary.
"""

from __future__ import annotations

from collections.abc import Mapping

PHRASES: Mapping[str, Mapping[str, str]] = {
    "en": {"EXACT": "exactly {n}", "LOWER_BOUND": "at least {n}", "SHOWN": "these {n}"},
    "de": {"EXACT": "genau {n}", "LOWER_BOUND": "mindestens {n}", "SHOWN": "diese {n}"},
    "es": {"EXACT": "exactamente {n}", "LOWER_BOUND": "al menos {n}", "SHOWN": "estos {n}"},
    "ko": {"EXACT": "정확히 {n}", "LOWER_BOUND": "최소 {n}", "SHOWN": "이 {n}"},
    "ja": {"EXACT": "ちょうど{n}", "LOWER_BOUND": "少なくとも{n}", "SHOWN": "これら{n}"},
}
# A period groups thousands in German and Spanish (1.234,50); a comma elsewhere.
GROUPING: Mapping[str, str] = {"en": ",", "ko": ",", "ja": ",", "de": ".", "es": "."}
