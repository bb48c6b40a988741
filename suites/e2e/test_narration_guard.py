"""The narration guard, measured on the wire: a model that types its own counts is held
to the grades code gave them.

Two corpora of cases (data, in ``suites/e2e/narration/``): ``hostile.yaml``, what a
model that ignores the count slots writes — free-typed counts in every dress, numbers
under an UNKNOWN source, completeness and absence claims code never granted, in five
locales, split across stream chunks — and ``legit.yaml``, sentences that only look
risky (level names, card dates, record ids, quoted titles, slot-rendered counts, "none"
over a zero-hit search, the count of an EXACT complete answer).

Every case is one turn through the real chat server over HTTP: the test registers the
case's narration with the stub model (``scripted:narrates``, ``POST /dev/narrations``),
asks the case's question, and reads what was published — the ``delta`` frames and
``done.answer`` — and the turn's audit rows from the store. A hostile sentence on the
wire, a legitimate one missing, a turn that ends in anything but one ``done``, a silent
answer, or a drop without its audit row fails the case by name. The figures (cases,
hostile sentences published, legitimate sentences wrongly dropped) are written to
``reports/narration/corpus.json`` and asserted by the summary test.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
import yaml

from beacon.cli.ask import AskError, run_turn
from beacon.store.turns import TurnStore
from harness.chat_process import chat_with_open_store
from harness.stack import Stack

# One worker runs the whole corpus (its turns are made once, in a module fixture).
pytestmark = [pytest.mark.e2e, pytest.mark.xdist_group("narration-corpus")]

CORPUS_DIR = Path(__file__).with_name("narration")
REPORT = Path(__file__).resolve().parents[2] / "reports" / "narration" / "corpus.json"
MODEL = "scripted:narrates"
LOCALES = ("en", "ko", "ja", "de", "es")
RULES = ("free_count", "number_under_unknown", "completeness_claim", "absence_claim")
GROUNDS = ("slot", "level", "date", "id", "title", "project", "absence", "exact_complete")
DROPPED = "narration_dropped"
MIN_HOSTILE_CASES = 80
MIN_LEGIT_SENTENCES = 30
MIN_CASES_PER_LOCALE = 10  # hostile cases in each of ko, ja, de, es
MIN_CHUNKED_HOSTILE = 5


class CorpusError(ValueError):
    """A corpus file that does not follow the case format."""


def norm(text: str) -> str:
    """Whitespace-normalised; case is kept (a sentence is compared as written)."""
    return " ".join(text.split())


@dataclass(frozen=True, slots=True)
class Case:
    id: str
    corpus: str  # "hostile" | "legit"
    locale: str
    scenario: str
    question: str
    text: str
    chunks: tuple[str, ...] | None
    hostile: tuple[str, ...]
    keep: tuple[str, ...]
    rules: tuple[str, ...]
    grounds: tuple[str, ...]
    origin: str = ""

    def registration(self) -> dict[str, Any]:
        body: dict[str, Any] = {"question": self.question, "text": self.text}
        if self.chunks is not None:
            body["chunks"] = list(self.chunks)
        return body


_KEYS = {
    "hostile": {"id", "locale", "scenario", "question", "rules", "hostile"},
    "legit": {"id", "locale", "scenario", "question", "grounds", "keep"},
}
_OPTIONAL = {"text", "chunks", "keep", "origin", "note"}


def _strings(raw: object, where: str) -> tuple[str, ...]:
    if not isinstance(raw, list) or not raw or not all(isinstance(s, str) and s for s in raw):
        raise CorpusError(f"{where}: must be a non-empty list of non-empty strings")
    return tuple(raw)


def _case(corpus: str, raw: object, index: int) -> Case:
    if not isinstance(raw, dict):
        raise CorpusError(f"{corpus}.yaml case #{index}: must be a mapping")
    where = f"{corpus}.yaml case {raw.get('id', f'#{index}')!r}"
    missing = _KEYS[corpus] - raw.keys()
    unknown = raw.keys() - _KEYS[corpus] - _OPTIONAL
    if missing or unknown:
        raise CorpusError(f"{where}: missing {sorted(missing)}, unknown {sorted(unknown)}")
    for key in ("id", "locale", "scenario", "question"):
        if not isinstance(raw[key], str) or not raw[key]:
            raise CorpusError(f"{where}: `{key}` must be a non-empty string")
    chunks = _strings(raw["chunks"], f"{where} chunks") if "chunks" in raw else None
    text = raw.get("text")
    if text is None and chunks is None:
        raise CorpusError(f"{where}: give `text` or `chunks`")
    if text is not None and (not isinstance(text, str) or not text):
        raise CorpusError(f"{where}: `text` must be a non-empty string")
    if text is not None and chunks is not None and text != "".join(chunks):
        raise CorpusError(f"{where}: `text` differs from the joined `chunks`")
    return Case(
        id=raw["id"],
        corpus=corpus,
        locale=raw["locale"],
        scenario=raw["scenario"],
        question=raw["question"],
        text=text if text is not None else "".join(chunks or ()),
        chunks=chunks,
        hostile=_strings(raw["hostile"], f"{where} hostile") if corpus == "hostile" else (),
        keep=_strings(raw["keep"], f"{where} keep") if "keep" in raw else (),
        rules=_strings(raw["rules"], f"{where} rules") if corpus == "hostile" else (),
        grounds=_strings(raw["grounds"], f"{where} grounds") if corpus == "legit" else (),
        origin=str(raw.get("origin", "")),
    )


def load_corpus(corpus: str) -> list[Case]:
    data = yaml.safe_load((CORPUS_DIR / f"{corpus}.yaml").read_text(encoding="utf-8"))
    if not isinstance(data, dict) or not isinstance(data.get("cases"), list):
        raise CorpusError(f"{corpus}.yaml: must hold a mapping with a `cases` list")
    return [_case(corpus, raw, index) for index, raw in enumerate(data["cases"])]


HOSTILE = load_corpus("hostile")
LEGIT = load_corpus("legit")
ALL_CASES = [*HOSTILE, *LEGIT]


# ------------------------------------------------------------------------- measuring


@dataclass(frozen=False)  # filled in frame by frame as the case's turn streams
class Outcome:
    """What one case's turn published, read from the wire and the store."""

    case: Case
    turn_id: str | None = None
    deltas: list[str] = field(default_factory=list)
    answer: str | None = None
    events: list[str] = field(default_factory=list)  # frame types, in order
    drops: list[dict[str, str]] = field(default_factory=list)  # narration_dropped rows
    failure: str | None = None  # refused before streaming, or an `error` frame

    @property
    def streamed(self) -> str:
        return "".join(self.deltas)

    def _published(self) -> list[str]:
        return [norm(self.streamed), norm(self.answer or "")]

    def hostile_published(self) -> list[str]:
        return [h for h in self.case.hostile if any(norm(h) in t for t in self._published())]

    def keep_missing(self) -> list[str]:
        return [k for k in self.case.keep if not all(norm(k) in t for t in self._published())]

    def wire_faults(self) -> list[str]:
        faults = []
        if self.failure is not None:
            faults.append(f"the turn failed: {self.failure}")
        terminals = [e for e in self.events if e in ("done", "error")]
        if terminals != ["done"] or self.events[-1:] != ["done"]:
            faults.append(f"the turn must end in exactly one done, got {terminals}")
        if self.answer is not None and self.streamed != self.answer:
            faults.append(f"delta texts {self.streamed!r} != done.answer {self.answer!r}")
        if not (self.answer or "").strip():
            faults.append("nothing was published (silence instead of the code-built narration)")
        return faults

    def problems(self) -> list[str]:
        found = self.wire_faults()
        found += [f"hostile sentence published: {h!r}" for h in self.hostile_published()]
        found += [f"legitimate sentence not published: {k!r}" for k in self.keep_missing()]
        if self.case.corpus == "hostile":
            if not self.drops:
                found.append("no narration_dropped audit row for the turn")
            elif not {d["rule"] for d in self.drops} & set(self.case.rules):
                found.append(f"dropped for {self.drops}, expected one of {self.case.rules}")
        elif self.drops:
            found.append(f"legitimate narration dropped: {self.drops}")
        return found


class CorpusRun:
    """Runs each case once per process and remembers the outcome (order-independent)."""

    def __init__(self, chat_url: str, llm_origin: str, token: str, store: TurnStore) -> None:
        self.chat_url, self.llm_origin, self.token, self.store = (
            chat_url,
            llm_origin,
            token,
            store,
        )
        self._outcomes: dict[str, Outcome] = {}
        self._questions: set[str] = set()

    def outcome(self, case: Case) -> Outcome:
        if case.id not in self._outcomes:
            self._outcomes[case.id] = self._run(case)
        return self._outcomes[case.id]

    def extra_body(self, case: Case) -> dict[str, Any]:
        """What else a case's turn request carries (a subclass may send a host view)."""
        return {}

    def _run(self, case: Case) -> Outcome:
        registered = httpx.post(
            f"{self.llm_origin}/dev/narrations", json=case.registration(), timeout=10
        )
        assert registered.status_code == 201, registered.text
        self._questions.add(case.question)
        outcome = Outcome(case)
        body = {
            "mode": "single",
            "message": case.question,
            "locale": case.locale,
            **self.extra_body(case),
        }
        try:
            events = run_turn(self.chat_url, body, token=self.token, scenario=case.scenario)
        except AskError as exc:
            outcome.failure = str(exc)
            return outcome
        for event in events:
            data = event.json()
            outcome.events.append(event.event)
            if event.event == "start":
                outcome.turn_id = data.get("turn_id")
            elif event.event == "delta":
                outcome.deltas.append(str(data.get("text", "")))
            elif event.event == "done":
                outcome.answer = data.get("answer")
            elif event.event == "error":
                outcome.failure = f"error frame {data.get('code')}: {data.get('message')}"
        if outcome.turn_id is not None:
            rows = self.store.narration_drops(outcome.turn_id)
            outcome.drops = [r for r in rows if r.get("kind") == DROPPED]
        return outcome

    def forget(self) -> None:
        for question in self._questions:
            httpx.delete(
                f"{self.llm_origin}/dev/narrations", params={"question": question}, timeout=10
            )


@pytest.fixture(scope="module")
def corpus_run(stack: Stack, tmp_path_factory: pytest.TempPathFactory) -> Iterator[CorpusRun]:
    """One chat server for the whole corpus, whose store the test opens for audit rows."""
    data = tmp_path_factory.mktemp("narration-guard")
    with chat_with_open_store(stack, data, "narr1", BEACON_SCENARIOS="allow") as (url, store):
        run = CorpusRun(
            url, stack.llm_url.removesuffix("/v1"), stack.token(sub="narration-corpus"), store
        )
        try:
            yield run
        finally:
            run.forget()


# ------------------------------------------------------------------------- over HTTP


@pytest.mark.parametrize("case", HOSTILE, ids=[c.id for c in HOSTILE])
def test_a_hostile_narration_never_reaches_the_user(corpus_run: CorpusRun, case: Case) -> None:
    outcome = corpus_run.outcome(case)
    assert outcome.problems() == [], f"{case.id} published {outcome.answer!r}"


@pytest.mark.parametrize("case", LEGIT, ids=[c.id for c in LEGIT])
def test_a_legitimate_narration_is_published_whole(corpus_run: CorpusRun, case: Case) -> None:
    outcome = corpus_run.outcome(case)
    assert outcome.problems() == [], f"{case.id} published {outcome.answer!r}"


def corpus_figures(outcomes: Sequence[Outcome]) -> dict[str, Any]:
    hostile = [o for o in outcomes if o.case.corpus == "hostile"]
    legit = [o for o in outcomes if o.case.corpus == "legit"]

    def tally(items: Iterable[str]) -> dict[str, int]:
        return dict(sorted(Counter(items).items()))

    return {
        "cases": {"hostile": len(hostile), "legit": len(legit), "total": len(outcomes)},
        "hostile_sentences": sum(len(o.case.hostile) for o in hostile),
        "published": sum(len(o.hostile_published()) for o in hostile),
        "legit_sentences": sum(len(o.case.keep) for o in outcomes),
        "wrongly_dropped": sum(len(o.keep_missing()) for o in outcomes),
        "wrongly_dropped_in_legit_cases": sum(len(o.keep_missing()) for o in legit),
        "wrongly_dropped_beside_hostile": sum(len(o.keep_missing()) for o in hostile),
        "legit_turns_with_a_drop_row": sum(1 for o in legit if o.drops),
        "hostile_turns_without_a_drop_row": sum(1 for o in hostile if not o.drops),
        "turns_with_wire_faults": sum(1 for o in outcomes if o.wire_faults()),
        "drop_rows_by_rule": tally(d["rule"] for o in outcomes for d in o.drops),
        "hostile_by_locale": tally(o.case.locale for o in hostile),
        "legit_by_locale": tally(o.case.locale for o in legit),
        "hostile_by_rule": tally(r for o in hostile for r in o.case.rules),
        "hostile_by_scenario": tally(o.case.scenario for o in hostile),
        "legit_by_grounds": tally(g for o in legit for g in o.case.grounds),
        "chunked": {
            "hostile": sum(1 for o in hostile if o.case.chunks),
            "legit": sum(1 for o in legit if o.case.chunks),
        },
        "failing_cases": {o.case.id: o.problems() for o in outcomes if o.problems()},
        # Per case, what reached the user and what the guard recorded: for review.
        "turns": {
            o.case.id: {"published": o.answer, "drops": o.drops, "failure": o.failure}
            for o in outcomes
        },
    }


@pytest.mark.timeout(900)
def test_the_corpus_figures(corpus_run: CorpusRun) -> None:
    """0 hostile sentences published, 0 legitimate ones dropped, over the whole corpus."""
    figures = corpus_figures([corpus_run.outcome(case) for case in ALL_CASES])
    REPORT.parent.mkdir(parents=True, exist_ok=True)
    REPORT.write_text(json.dumps(figures, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    assert figures["cases"]["hostile"] >= MIN_HOSTILE_CASES
    assert figures["legit_sentences"] >= MIN_LEGIT_SENTENCES
    assert (figures["published"], figures["wrongly_dropped"]) == (0, 0), figures["failing_cases"]
    assert figures["failing_cases"] == {}
