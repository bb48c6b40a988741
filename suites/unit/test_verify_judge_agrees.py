"""Verify's own judge and Beacon's narration guard agree on the guard's corpora.

Each corpus sentence is judged twice: by the guard (``beacon.adjudication``), as
the model wrote it with its slots, and by verify's judge (``harness.verify.judge``),
as a server would publish it, its slots rendered with verify's own phrase table.
Both must reach the same verdict (drop or publish) on every case, or the case
is listed in ``verify_disagreements.yaml`` with why; a listed case that now
agrees fails too, so the list never outlives what it explains.

Corpora: the e2e narration cases (``suites/e2e/narration``: the standing of each
question written out below from those files' header comments) and the
judge-level corpus (``suites/unit/guard_corpus``: its own ``standings.yaml``).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml

from beacon.adjudication.guard.counted import Counted
from beacon.adjudication.guard.judge import judge as guard_judge
from beacon.adjudication.guard.slots import render_sentence
from beacon.adjudication.guard.slots import split_sentences as guard_sentences
from beacon.adjudication.guard.standing import build_standing
from beacon.wire.frames import Grade
from harness.verify.judge import Evidence, judge_sentence
from harness.verify.phrases import Count, render_slots
from harness.verify.values import Values

ROOT = Path(__file__).resolve().parents[2]
E2E = ROOT / "suites" / "e2e" / "narration"
GUARD_CORPUS = ROOT / "suites" / "unit" / "guard_corpus"
DISAGREEMENTS = Path(__file__).with_name("verify_disagreements.yaml")

DIRECTORY = [
    "prj-harbor-tower", "Harbor Tower", "prj-maple-clinic", "Maple Clinic",
    "prj-cedar-school", "Cedar School", "prj-riverside-depot", "Riverside Depot",
]  # fmt: skip


@dataclass(frozen=True)
class Standing:
    """One turn's evidence as both judges are given it."""

    counts: tuple[Count, ...]
    cards: tuple[tuple[str, ...], ...] = ()
    values: tuple[str, ...] = tuple(DIRECTORY)
    levels: tuple[int, ...] = ()

    def strings(self) -> list[str]:
        return [v for card in self.cards for v in card if v] + list(self.values)

    def guard(self) -> Any:
        sources = [
            Counted(
                c.slot,
                Grade(c.grade),
                c.total,
                c.displayed,
                has_more=c.has_more,
                emptiness="empty"
                if c.may_say_none
                else ("unknown" if c.grade == "UNKNOWN" else "non_empty"),
                may_say_none=c.may_say_none,
            )
            for c in self.counts
        ]
        return build_standing(sources, self.strings(), self.levels)

    def evidence(self) -> Evidence:
        return Evidence(self.counts, Values(tuple(self.strings()), frozenset(self.levels)))


def _c(slot: str, grade: Any, total: int | None, shown: int, more: bool = False) -> Count:
    return Count(slot, grade, total, shown, more, may_say_none=False)


# The standing of every e2e question, from the header comments of hostile.yaml and
# legit.yaml (stub corpus, seed 7). An EXACT list says has_more false on the wire even
# when only its first 10 cards are shown (guard_corpus/standings.yaml measures the same).
_PHOTO_CARDS = (
    ("ph-000223", "Level 7: PPE breach under overhead lifting", "Level 7", "2025-09-12"),
    ("ph-000437", "Level 10: Crew member not wearing a helmet", "Level 10", "2025-12-17"),
    ("ph-000541", "Level 12: Missing hard hats at material landing", "Level 12", "2026-05-03"),
)
_L3_FINDINGS = (
    ("ann-000003", "Eye protection absent (atrium)", "Level 3", "2026-03-25"),
    ("ann-000146", "Worker without hard hat (west wing)", "Level 3", "2025-10-15"),
)
_L3_PANORAMAS = (
    ("cap-000003", "L3 north core walk #0003", "Level 3", "2026-03-07"),
    ("cap-000035", "L3 south core walk #0035", "Level 3", "2026-03-23"),
)
E2E_STANDINGS: Mapping[str, Standing] = {
    "Show me photos of hard hats in Harbor Tower": Standing(
        (_c("c1", "LOWER_BOUND", 173, 10, True),), _PHOTO_CARDS
    ),
    "Show me photos of hard hats in Cedar School": Standing(
        (_c("c1", "LOWER_BOUND", 11, 10, True),)
    ),
    "Show me photos of hard hats in Maple Clinic": Standing((_c("c1", "LOWER_BOUND", 6, 6),)),
    "List all panoramas in Harbor Tower": Standing(
        (_c("c1", "LOWER_BOUND", 3000, 10, True),),
        (("cap-000010", "L10 atrium walk #0010", "Level 10", "2026-06-27"),),
    ),
    "How many panoramas are in Harbor Tower?": Standing(
        (_c("c1", "EXACT", 7961, 0), _c("c2", "LOWER_BOUND", 3000, 10, True))
    ),
    "How many findings are in Harbor Tower?": Standing(
        (_c("c1", "EXACT", 1800, 0), _c("c2", "EXACT", 1800, 10))
    ),
    "How many open findings are in Harbor Tower?": Standing(
        (_c("c1", "EXACT", 714, 0), _c("c2", "EXACT", 714, 10))
    ),
    "How many open quality findings are in Harbor Tower?": Standing((_c("c1", "EXACT", 326, 0),)),
    "How many open safety findings are on level 3 of Harbor Tower?": Standing(
        (_c("c1", "EXACT", 24, 0), _c("c2", "EXACT", 24, 10)), _L3_FINDINGS, levels=(3,)
    ),
    "List open findings in Harbor Tower": Standing((_c("c1", "EXACT", 714, 10),), _L3_FINDINGS),
    "List panoramas on level 3 of Harbor Tower": Standing(
        (_c("c1", "EXACT", 554, 10),), _L3_PANORAMAS, levels=(3,)
    ),
    "List open safety findings on level 3 of Maple Clinic": Standing(
        (_c("c1", "EXACT", 8, 8),), levels=(3,)
    ),
    "List open safety findings in Riverside Depot": Standing((_c("c1", "EXACT", 6, 6),)),
    "List closed fire safety findings in Maple Clinic": Standing((_c("c1", "EXACT", 2, 2),)),
    "List open electrical findings on level 2 of Riverside Depot": Standing(
        (_c("c1", "EXACT", 1, 1),),
        (("ann-002068", "Damaged extension lead (west wing)", "Level 2", "2026-05-05"),),
        levels=(2,),
    ),
}
_PHOTOS = "Show me photos of hard hats in "


def e2e_standing(scenario: str, question: str) -> Standing:
    """The scenario's change to the question's standing: legacy grades every count
    UNKNOWN, a disguised 502 makes the photo search UNKNOWN, zero hits make it an
    accounted empty result; none of them cites a card for the source it changes."""
    normal = E2E_STANDINGS[question]
    unknown = Count("c1", "UNKNOWN", None, 0, False)
    if scenario == "model-narrates-legacy":
        return Standing(tuple(Count(c.slot, "UNKNOWN", None, 0, False) for c in normal.counts))
    if scenario == "model-narrates-inband-502" and question.startswith(_PHOTOS):
        return Standing((unknown,))
    if scenario == "model-narrates-zero-hits" and question.startswith(_PHOTOS):
        return Standing((Count("c1", "LOWER_BOUND", 0, 0, False, may_say_none=True),))
    return normal


@dataclass(frozen=True)
class Case:
    corpus: str
    case: str
    locale: str
    sentence: str  # as the model wrote it, slots and all
    standing: Standing

    @property
    def key(self) -> tuple[str, str, str, str]:
        return (self.corpus, self.case, self.locale, self.sentence.strip())


def _sentences(text: str) -> Iterator[str]:
    yield from (s for s in guard_sentences(text) if s.strip())


def e2e_cases() -> list[Case]:
    cases = []
    for name in ("hostile", "legit"):
        for row in yaml.safe_load((E2E / f"{name}.yaml").read_text())["cases"]:
            text = row.get("text") or "".join(row["chunks"])
            standing = e2e_standing(row["scenario"], row["question"])
            for sentence in _sentences(text):
                cases.append(Case(f"e2e/{name}", row["id"], row["locale"], sentence, standing))
    return cases


def _corpus_standings() -> dict[str, Standing]:
    data = yaml.safe_load((GUARD_CORPUS / "standings.yaml").read_text())
    out = {}
    for name, row in data["standings"].items():
        counts = tuple(
            Count(
                c["slot"],
                c["grade"],
                c["total"],
                c["displayed"],
                c["has_more"],
                c["may_say_none"],
            )
            for c in row["counts"]
        )
        cards = tuple(tuple(str(v) for v in card) for card in row.get("cards") or [])
        values = tuple(str(v) for v in row.get("values") or [])
        out[name] = Standing(counts, cards, values, tuple(row.get("levels") or []))
    return out


def guard_corpus_present() -> bool:
    return all((GUARD_CORPUS / f"{n}.yaml").is_file() for n in ("standings", "hostile", "legit"))


def guard_corpus_cases() -> list[Case]:
    standings = _corpus_standings()
    cases = []
    hostile = yaml.safe_load((GUARD_CORPUS / "hostile.yaml").read_text()) or {}
    for locale, by_standing in hostile.items():
        for name, by_rule in (by_standing or {}).items():
            for rule, sentences in (by_rule or {}).items():
                for sentence in sentences or []:
                    case = f"{name}/{rule}"
                    cases.append(Case("guard/hostile", case, locale, sentence, standings[name]))
    legit = yaml.safe_load((GUARD_CORPUS / "legit.yaml").read_text()) or {}
    for locale, by_standing in legit.items():
        for name, sentences in (by_standing or {}).items():
            for sentence in sentences or []:
                cases.append(Case("guard/legit", name, locale, sentence, standings[name]))
    return cases


def guard_drops(case: Case) -> bool:
    """The product: the guard's verdict, then its own rendering (an UNKNOWN slot is dropped)."""
    standing = case.standing
    if guard_judge(case.sentence, standing.guard(), case.locale) is not None:
        return True
    slots = {c.slot: Counted(c.slot, Grade(c.grade), c.total, c.displayed) for c in standing.counts}
    rendered, _ = render_sentence(case.sentence, slots, case.locale)
    return not rendered.strip()


def verify_drops(case: Case) -> bool:
    """What verify says of the sentence as a server would publish it."""
    published = render_slots(case.sentence, case.standing.counts, case.locale)
    if published is None:
        return True  # nothing a server may publish: no number stands for that slot
    return judge_sentence(published, case.standing.evidence(), case.locale) is not None


def _verdict(dropped: bool) -> str:
    return "drop" if dropped else "publish"


def listed() -> dict[tuple[str, str, str, str], dict[str, Any]]:
    rows = yaml.safe_load(DISAGREEMENTS.read_text()) or []
    return {(r["corpus"], r["case"], r["locale"], r["sentence"].strip()): r for r in rows}


def disagreements(cases: Sequence[Case]) -> dict[tuple[str, str, str, str], tuple[str, str]]:
    found = {}
    for case in cases:
        guard, verify = _verdict(guard_drops(case)), _verdict(verify_drops(case))
        if guard != verify:
            found[case.key] = (guard, verify)
    return found


def _check(cases: Sequence[Case], corpus_prefix: str) -> None:
    assert cases, f"no cases read from {corpus_prefix}"
    found = disagreements(cases)
    known = {k: v for k, v in listed().items() if k[0].startswith(corpus_prefix)}
    unlisted = {k: v for k, v in found.items() if k not in known}
    wrong = {
        k: (found[k], (known[k]["guard"], known[k]["verify"]))
        for k in found.keys() & known.keys()
        if found[k] != (known[k]["guard"], known[k]["verify"])
    }
    stale = sorted(k for k in known if k not in found)
    assert not unlisted, "the judges disagree (guard, verify):\n" + "\n".join(
        f"  {k} -> {v}" for k, v in sorted(unlisted.items())
    )
    assert not wrong, f"listed with other verdicts than the judges now give: {wrong}"
    assert not stale, f"listed as disagreements but the judges now agree: {stale}"


def test_every_listed_disagreement_says_why() -> None:
    for row in yaml.safe_load(DISAGREEMENTS.read_text()) or []:
        assert {"corpus", "case", "locale", "sentence", "guard", "verify", "why"} <= set(row)
        assert row["guard"] != row["verify"] and str(row["why"]).strip(), row


def test_the_judges_agree_on_the_e2e_narration_corpora() -> None:
    _check(e2e_cases(), "e2e/")


def test_the_judges_agree_on_the_judge_level_guard_corpus() -> None:
    if not guard_corpus_present():
        pytest.skip(f"the judge-level corpus is not in this tree: {GUARD_CORPUS} (3 files)")
    _check(guard_corpus_cases(), "guard/")


def test_verify_renders_a_slot_sentence_as_the_e2e_corpus_expects_it_published() -> None:
    # The "keep" sentences are the server's rendering, looked up in the stub corpus:
    # verify's phrase table must write a slot the way the product publishes it.
    for row in yaml.safe_load((E2E / "legit.yaml").read_text())["cases"]:
        text = row.get("text") or "".join(row["chunks"])
        standing = e2e_standing(row["scenario"], row["question"])
        rendered = render_slots(text, standing.counts, row["locale"])
        assert rendered is not None
        for kept in row["keep"]:
            assert kept in rendered, (row["id"], kept, rendered)
