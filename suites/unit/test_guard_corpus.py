"""The narration guard against a corpus: hostile sentences a model writes, legit ones
it may, each judged against the standing of a real stub turn.

The corpus is data (``suites/unit/guard_corpus/``): ``standings.yaml`` (what real
turns give the guard: counts, cards, directory, levels), ``hostile.yaml``
(``locale -> standing -> rule -> [sentences]``: the rule is the first one ``judge``
must report) and ``legit.yaml`` (``locale -> standing -> [sentences]``: each must
pass). Every sentence is its own case; the summary test writes the per-locale
figures to ``reports/narration/guard_corpus.json``. The same corpus crosses the wire
in ``suites/e2e/test_guard_corpus_http.py``.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml

from beacon.adjudication.guard.counted import Counted
from beacon.adjudication.guard.judge import judge
from beacon.adjudication.guard.slots import split_sentences
from beacon.adjudication.guard.standing import Standing, build_standing
from beacon.wire.audit import DropRule
from beacon.wire.frames import Grade

CORPUS_DIR = Path(__file__).with_name("guard_corpus")
REPORT = Path(__file__).resolve().parents[2] / "reports" / "narration" / "guard_corpus.json"
LOCALES = ("en", "de", "es", "ko", "ja")
RULES = tuple(DropRule)
MIN_HOSTILE = 300
MIN_HOSTILE_PER_LOCALE = 40
MIN_LEGIT = 120
MIN_LEGIT_PER_LOCALE = 20


class CorpusError(ValueError):
    """A corpus file that does not follow its format."""


@dataclass(frozen=True, slots=True)
class Count:
    slot: str
    grade: Grade
    total: int | None
    displayed: int
    has_more: bool
    may_say_none: bool


@dataclass(frozen=True, slots=True)
class NamedStanding:
    name: str
    counts: tuple[Count, ...]
    values: tuple[str, ...]
    levels: tuple[int, ...]
    http: dict[str, Any]

    def standing(self) -> Standing:
        sources = [
            Counted(
                c.slot,
                c.grade,
                c.total,
                c.displayed,
                has_more=c.has_more,
                emptiness="unknown"
                if c.grade is Grade.UNKNOWN
                else "empty"
                if c.total == 0
                else "non_empty",
                may_say_none=c.may_say_none,
            )
            for c in self.counts
        ]
        return build_standing(sources, self.values, self.levels)


@dataclass(frozen=True, slots=True)
class Sentence:
    corpus: str  # hostile | legit
    locale: str
    standing: str
    rule: str | None  # the rule a hostile sentence must be dropped for
    text: str

    @property
    def id(self) -> str:
        return f"{self.locale}-{self.standing}-{self.rule or 'legit'}: {self.text}"


# ------------------------------------------------------------------------- loading


def _mapping(raw: object, where: str) -> dict[str, Any]:
    if not isinstance(raw, dict) or not raw:
        raise CorpusError(f"{where}: must be a non-empty mapping")
    return raw


def _exact_keys(raw: dict[str, Any], keys: set[str], where: str) -> None:
    missing, unknown = keys - raw.keys(), raw.keys() - keys
    if missing or unknown:
        raise CorpusError(f"{where}: missing {sorted(missing)}, unknown {sorted(unknown)}")


def _texts(raw: object, where: str) -> list[str]:
    if not isinstance(raw, list) or not raw:
        raise CorpusError(f"{where}: must be a non-empty list of sentences")
    for text in raw:
        if not isinstance(text, str) or not text.strip():
            raise CorpusError(f"{where}: {text!r} is not a sentence")
        # The guard judges one sentence at a time: a case holding two would be two cases.
        if len(split_sentences(text.strip())) != 1 or text.strip()[-1] not in ".!?。！？":
            raise CorpusError(f"{where}: {text!r} must be exactly one ended sentence")
    dupes = [t for t, n in Counter(raw).items() if n > 1]
    if dupes:
        raise CorpusError(f"{where}: repeated {dupes}")
    return [t.strip() for t in raw]


def _count(raw: object, where: str) -> Count:
    row = _mapping(raw, where)
    _exact_keys(row, {"slot", "grade", "total", "displayed", "has_more", "may_say_none"}, where)
    if row["grade"] not in Grade.__members__:
        raise CorpusError(
            f"{where}: grade {row['grade']!r} is not one of {list(Grade.__members__)}"
        )
    if row["total"] is not None and not isinstance(row["total"], int):
        raise CorpusError(f"{where}: total must be an int or null")
    if not isinstance(row["displayed"], int):
        raise CorpusError(f"{where}: displayed must be an int")
    for flag in ("has_more", "may_say_none"):
        if not isinstance(row[flag], bool):
            raise CorpusError(f"{where}: {flag} must be true or false")
    return Count(
        str(row["slot"]),
        Grade[row["grade"]],
        row["total"],
        row["displayed"],
        row["has_more"],
        row["may_say_none"],
    )


def _named_standing(name: str, raw: object) -> NamedStanding:
    where = f"standings.yaml {name}"
    row = _mapping(raw, where)
    _exact_keys(row, {"http", "counts", "cards", "values", "levels"}, where)
    http = _mapping(row["http"], f"{where} http")
    if not {"scenario", "question"} <= http.keys() <= {"scenario", "question", "view_context"}:
        raise CorpusError(f"{where} http: scenario, question and an optional view_context")
    if not isinstance(row["counts"], list) or not row["counts"]:
        raise CorpusError(f"{where}: counts must be a non-empty list")
    counts = tuple(_count(c, f"{where} counts[{i}]") for i, c in enumerate(row["counts"]))
    cards = row["cards"]
    if not isinstance(cards, list) or not all(
        isinstance(c, list) and len(c) == 4 and all(isinstance(v, str) for v in c) for c in cards
    ):
        raise CorpusError(f"{where}: cards must be a list of [id, title, level, date]")
    values = row["values"]
    if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
        raise CorpusError(f"{where}: values must be a list of strings")
    levels = row["levels"]
    if not isinstance(levels, list) or not all(isinstance(n, int) for n in levels):
        raise CorpusError(f"{where}: levels must be a list of ints")
    strings = tuple(v for card in cards for v in card) + tuple(values)
    return NamedStanding(name, counts, strings, tuple(levels), http)


def load_standings() -> tuple[dict[str, NamedStanding], dict[str, dict[str, str]]]:
    raw = _mapping(yaml.safe_load((CORPUS_DIR / "standings.yaml").read_text("utf-8")), "standings")
    _exact_keys(raw, {"phrases", "directory", "standings"}, "standings.yaml")
    phrases = _mapping(raw["phrases"], "standings.yaml phrases")
    _exact_keys(phrases, set(LOCALES), "standings.yaml phrases")
    for locale, row in phrases.items():
        _exact_keys(
            _mapping(row, f"phrases {locale}"),
            {"EXACT", "LOWER_BOUND", "shown", "grouping"},
            f"standings.yaml phrases {locale}",
        )
    named = _mapping(raw["standings"], "standings.yaml standings")
    return {name: _named_standing(name, row) for name, row in named.items()}, phrases


def load_sentences(corpus: str, standings: dict[str, NamedStanding]) -> list[Sentence]:
    raw = _mapping(yaml.safe_load((CORPUS_DIR / f"{corpus}.yaml").read_text("utf-8")), corpus)
    _exact_keys(raw, set(LOCALES), f"{corpus}.yaml")
    found: list[Sentence] = []
    for locale, by_standing in raw.items():
        for name, body in _mapping(by_standing, f"{corpus}.yaml {locale}").items():
            where = f"{corpus}.yaml {locale}.{name}"
            if name not in standings:
                raise CorpusError(f"{where}: no standing {name!r} in standings.yaml")
            if corpus == "legit":
                found += [Sentence(corpus, locale, name, None, t) for t in _texts(body, where)]
                continue
            for rule, texts in _mapping(body, where).items():
                if rule not in RULES:
                    raise CorpusError(f"{where}: {rule!r} is not one of {RULES}")
                found += [
                    Sentence(corpus, locale, name, rule, t)
                    for t in _texts(texts, f"{where}.{rule}")
                ]
    return found


STANDINGS, PHRASES = load_standings()
HOSTILE = load_sentences("hostile", STANDINGS)
LEGIT = load_sentences("legit", STANDINGS)
_BUILT = {name: named.standing() for name, named in STANDINGS.items()}


def verdict(sentence: Sentence) -> str | None:
    drop = judge(sentence.text, _BUILT[sentence.standing], sentence.locale)
    return None if drop is None else drop.rule


# ------------------------------------------------------------------------- the cases


@pytest.mark.parametrize("sentence", HOSTILE, ids=[s.id for s in HOSTILE])
def test_a_hostile_sentence_is_dropped_for_its_rule(sentence: Sentence) -> None:
    assert verdict(sentence) == sentence.rule


@pytest.mark.parametrize("sentence", LEGIT, ids=[s.id for s in LEGIT])
def test_a_legit_sentence_is_published(sentence: Sentence) -> None:
    drop = judge(sentence.text, _BUILT[sentence.standing], sentence.locale)
    assert drop is None, f"dropped for {drop.rule} on {drop.token!r}"


def test_a_malformed_corpus_is_refused_by_name() -> None:
    with pytest.raises(CorpusError, match="exactly one ended sentence"):
        _texts(["No photos matched. None at all."], "hostile.yaml en.lower_bound.absence_claim")
    with pytest.raises(CorpusError, match="grade 'MAYBE'"):
        _count(
            {
                "slot": "c1",
                "grade": "MAYBE",
                "total": 1,
                "displayed": 1,
                "has_more": False,
                "may_say_none": False,
            },
            "standings.yaml x counts[0]",
        )
    with pytest.raises(CorpusError, match=r"missing \['levels'\]"):
        _named_standing("x", {"http": {}, "counts": [], "cards": [], "values": []})


def test_each_batch_splits_back_into_its_sentences() -> None:
    """The e2e test narrates a (locale, standing)'s sentences joined by a space: the
    guard must see the same sentences there as here."""
    batches: dict[tuple[str, str, str], list[str]] = {}
    for s in [*HOSTILE, *LEGIT]:
        batches.setdefault((s.corpus, s.locale, s.standing), []).append(s.text)
    for key, texts in batches.items():
        assert [part.strip() for part in split_sentences(" ".join(texts))] == texts, key


def figures() -> dict[str, Any]:
    by_locale: dict[str, dict[str, Any]] = {}
    for locale in LOCALES:
        hostile = [s for s in HOSTILE if s.locale == locale]
        legit = [s for s in LEGIT if s.locale == locale]
        verdicts = {s: verdict(s) for s in [*hostile, *legit]}
        by_locale[locale] = {
            "hostile_published": sum(1 for s in hostile if verdicts[s] is None),
            "hostile_total": len(hostile),
            "hostile_rule_mismatches": sum(1 for s in hostile if verdicts[s] not in (None, s.rule)),
            "legit_wrongly_dropped": sum(1 for s in legit if verdicts[s] is not None),
            "legit_total": len(legit),
            "misses": [
                {"sentence": s.text, "standing": s.standing, "want": s.rule, "got": verdicts[s]}
                for s in [*hostile, *legit]
                if verdicts[s] != s.rule
            ],
        }
    return {
        "hostile_total": len(HOSTILE),
        "legit_total": len(LEGIT),
        "hostile_by_rule": dict(sorted(Counter(s.rule or "" for s in HOSTILE).items())),
        "by_locale": by_locale,
    }


def test_the_corpus_figures_reach_their_floors_with_no_miss() -> None:
    found = figures()
    REPORT.parent.mkdir(parents=True, exist_ok=True)
    REPORT.write_text(json.dumps(found, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    assert found["hostile_total"] >= MIN_HOSTILE
    assert found["legit_total"] >= MIN_LEGIT
    assert set(found["hostile_by_rule"]) == set(RULES)
    for locale, row in found["by_locale"].items():
        assert row["hostile_total"] >= MIN_HOSTILE_PER_LOCALE, locale
        assert row["legit_total"] >= MIN_LEGIT_PER_LOCALE, locale
        assert row["misses"] == [], locale
