"""Licensing vocabulary, as data: what no prompt may contain and no answer may voice.

The prompts carry none of it (the vocabulary gate), so a model that writes it
is restating a denial it was never told about in those words: the structured
denial notice is the only place a denial is said.

Left out on purpose: capability ids that are also construction words (core,
documents, progress, bim, analytics). "plan" is caught only as a commercial
noun: the planner "plans tool calls", and construction has floor plans.
"""

from __future__ import annotations

import re

from beacon.policy.capabilities import TIERS

BANNED: tuple[tuple[str, str], ...] = (
    *((f"tier-name-{t}", rf"\b{t}\b") for t in TIERS),
    ("tier", r"\btiers?\b"),
    ("licence-license", r"\blicen[cs]"),
    ("subscription", r"\bsubscri(?:be|bed|ption|ptions)\b"),
    ("entitlement", r"\bentitle"),
    ("upgrade", r"\bupgrad"),
    ("premium", r"\bpremium\b"),
    ("paid-pricing-billing", r"\b(?:paid|pricing|billing|paywall\w*)\b"),
    ("unlock", r"\bunlock"),
    (
        "plan-as-product",
        r"\b(?:your|the|a|their|current|paid|free|higher|lower|pricing|subscription)\s+plans?\b"
        r"|\bplans?\s+(?:tier|level|includes?|allows?)\b",
    ),
    ("capability", r"\bcapabilit(?:y|ies)\b"),
    ("capability-id-photo-ai", r"\bphoto_ai\b"),
    ("access-level", r"\baccess\s+(?:level|right)s?\b"),
    ("permission", r"\bpermission"),
    ("access-denied", r"\baccess\s+denied\b"),
)
PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (rule, re.compile(pattern, re.IGNORECASE)) for rule, pattern in BANNED
)


def licensing_words(text: str) -> list[str]:
    """The rules ``text`` breaks (empty when it is clean)."""
    return [rule for rule, pattern in PATTERNS if pattern.search(text)]
