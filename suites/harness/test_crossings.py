"""Boundary-crossing tests: one side's real output fed straight into the other.

Each internal seam of the registry has one here, marked ``crossing("<id>")``
so the sweep finds it. Testing each side alone stays green forever; these
break when the two sides stop agreeing.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path
from typing import Any

import httpx
import pytest

from beacon.adjudication import (
    CallFacts,
    Grade,
    absence_cause,
    call_anchors,
    grade_count,
    is_in_band_failure,
    read_accounting,
    render_narration,
    result_emptiness,
    stitch_pages,
)
from beacon.adjudication.guard.counted import Counted
from beacon.auth import TokenPolicy, parse_jwks, verify_with_keys
from beacon.llm.client import Completion, LlmConfig, stream_completion
from beacon.loop.anchors import anchor_records, anchors_message
from beacon.loop.context import project_directory
from beacon.loop.evidence import adjudicate
from beacon.loop.frames import FrameMaker
from beacon.loop.prompts import turn_block
from beacon.policy import TIERS, TOOL_CAPABILITY, decide, granted_capabilities, scope_catalog
from beacon.upstream.mcp_client import ToolOutcome, connect
from beacon.wire.sse import parse_sse
from harness import producers
from harness.inproc import serving

ROOT = Path(__file__).resolve().parents[2]
MC = "prj-maple-clinic"
PHOTOS = {"project_id": MC, "query": "rebar"}
SATURATED = {"project_id": "prj-harbor-tower", "question": "List all panoramas in Harbor Tower"}


def outcome(tool: str, arguments: dict[str, Any], mode: str = "ok") -> ToolOutcome:
    result = producers.tool_result(tool, arguments, mode)
    return ToolOutcome(tool, arguments, result, 200, len(json.dumps(result)))


@pytest.mark.crossing("seam:upstream-outcome>evidence")
async def test_a_tool_outcome_from_the_real_client_is_adjudicated_by_the_loop() -> None:
    from stub_server.mcp_app import create_app

    with serving(lambda origin: create_app(public_origin=origin)) as origin:
        token = httpx.post(f"{origin}/dev/tokens", json={"sub": "x", "tiers": ["enterprise_ai"]})
        async with connect(f"{origin}/mcp", bearer=token.json()["token"]) as upstream:
            got = await upstream.call_tool("search_photos", PHOTOS)
    evidence = adjudicate(got, call_id="c1", slot="c1", sentinel=3000, project_id=MC)
    assert (evidence.failed, evidence.verdict.grade) == (False, Grade.LOWER_BOUND)
    assert evidence.citations and all(c.id.startswith("ph-") for c in evidence.citations)


@pytest.mark.crossing("seam:anchors>rules-narrator")
def test_beacon_rules_narrates_the_anchor_records_through_their_slots() -> None:
    from stub_server.rules_narrator import narrate

    evidence = adjudicate(
        outcome("search_photos", PHOTOS), call_id="c1", slot="c1", sentinel=3000, project_id=MC
    )
    message = anchors_message([evidence], "Photos of rebar")
    text = narrate(
        [{"role": "system", "content": message}, {"role": "user", "content": "Photos of rebar"}]
    )
    assert "{{count:c1}}" in text and "{{shown:c1}}" in text
    assert not re.search(r"\d", re.sub(r"\{\{[^}]*\}\}", "", text)), text


@pytest.mark.crossing("seam:wire-frames>panel-state")
def test_the_panel_reducer_accepts_every_frame_the_server_makes() -> None:
    maker = FrameMaker("t_crossing")
    frames = [
        maker.make("start", session_id=None, mode="single"),
        maker.make("plan", round=0, purpose="context", calls=[]),
        maker.make("references", citations=[], counts=[], complete=False),
        maker.make("delta", text="Hello."),
        maker.make("done", finish_reason="stop", answer="Hello."),
    ]
    state_js = (ROOT / "beacon/panel/reducer.js").as_uri()
    script = (
        f"import {{initialState, reduce, refusal, sending}} from '{state_js}';"
        "const frames = JSON.parse(require_stdin());"
    ).replace("require_stdin()", "await new Response(process.stdin).text()")
    script += (
        # The panel is `sending` once the user asked: the stream's frames follow.
        "let s = sending(initialState()); const refused = [];"
        "for (const f of frames) {"
        " const r = refusal(s, f); if (r) refused.push(r); s = reduce(s, f); }"
        "console.log(JSON.stringify("
        "{phase: s.phase, prose: s.prose, finish: s.finishReason, refused}));"
    )
    payload = json.dumps([{"type": f.type, "id": str(f.seq), "data": f.data} for f in frames])
    done = subprocess.run(
        ["node", "--input-type=module", "-e", script],
        input=payload,
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    )
    state = json.loads(done.stdout)
    assert state["refused"] == [] and state["finish"] == "stop", state
    assert state["phase"] == "complete"
    assert state["prose"] == "Hello."


@pytest.mark.crossing("seam:frame-maker>sse-reader")
def test_frames_the_loop_encodes_parse_back_through_the_sse_reader() -> None:
    maker = FrameMaker("t_sse")
    frames = [
        maker.make("start", session_id="s_1", mode="chat"),
        maker.make("references", citations=[], counts=[], complete=False),
        maker.make("delta", text="line one\nline two: with a colon"),
        maker.make("error", code="internal", message="boom"),
    ]
    wire = b"".join(f.encode() for f in frames).decode()
    events = list(parse_sse(wire.split("\n")))
    assert [(e.event, e.id) for e in events] == [(f.type, str(f.seq)) for f in frames]
    assert [e.json() for e in events] == [f.data for f in frames]


@pytest.mark.crossing("seam:stub-envelope>accounting-reader")
def test_the_envelope_the_stub_writes_is_read_field_for_field() -> None:
    result = producers.tool_result("list_annotations", {"project_id": MC})
    record = read_accounting(result)
    structured = result["structuredContent"]
    assert record is not None and record.source == "meta"
    assert (record.returned, record.total, record.has_more, record.cursor) == (
        structured["returned"],
        structured["total"],
        structured["has_more"],
        structured["cursor"],
    )


@pytest.mark.crossing("seam:count-verdict>slots")
def test_a_saturated_upstream_total_renders_as_at_least_never_exactly() -> None:
    verdict = grade_count(producers.tool_result("query_data", SATURATED))
    assert (verdict.grade, verdict.value, verdict.has_more) == (Grade.LOWER_BOUND, 3000, True)
    slots = {"c1": Counted("c1", verdict.grade, verdict.value, 10)}
    text, _ = render_narration("The query matched {{count:c1}} records.", slots, "en")
    assert text == "The query matched at least 3,000 records."
    german, _ = render_narration("Treffer: {{count:c1}}.", slots, "de")
    assert german == "Treffer: mindestens 3.000."


@pytest.mark.crossing("seam:evidence>loop-anchors")
def test_adjudicated_evidence_becomes_a_bound_and_a_subset_anchor() -> None:
    evidence = adjudicate(
        outcome("search_photos", PHOTOS), call_id="c1", slot="c1", sentinel=3000, project_id=MC
    )
    kinds = [r["kind"] for r in anchor_records([evidence], "Photos of rebar")]
    assert kinds == ["lower_bound", "shown_subset"]


@pytest.mark.crossing("seam:absence>anchors")
def test_a_real_zero_hit_search_earns_the_zero_from_start_anchor() -> None:
    result = producers.tool_result("search_photos", PHOTOS, "zero_hits")
    verdict = absence_cause(CallFacts(result_emptiness("search_photos", result)))
    assert verdict is not None and verdict.may_say_none
    anchors = call_anchors("c1", "photos", grade_count(result), verdict, shown=0)
    assert [a.kind.value for a in anchors] == ["absence_zero_from_start"]


@pytest.mark.crossing("seam:stub-projects>context")
@pytest.mark.parametrize("mode", ["ok", "legacy"])
def test_the_planner_directory_comes_from_the_stubs_project_list(mode: str) -> None:
    directory = project_directory(producers.tool_result("list_projects", {}, mode))
    assert {"id": "prj-harbor-tower", "name": "Harbor Tower"} in directory
    assert len(directory) == 4


@pytest.fixture
def directory() -> list[dict[str, str]]:
    return project_directory(producers.tool_result("list_projects", {}))


@pytest.mark.crossing("seam:stub-llm-stream>llm-client")
async def test_the_llm_client_reads_the_stub_models_stream_as_tool_calls(
    directory: list[dict[str, str]],
) -> None:
    from stub_server.llm_app import create_app

    transport = httpx.ASGITransport(app=create_app(stall_s=0.0))
    config = LlmConfig("http://127.0.0.1:9/v1", "k", "beacon-rules", 10.0)
    tools = [
        {"type": "function", "function": {"name": "query_data", "parameters": {"type": "object"}}}
    ]
    messages = [
        {"role": "system", "content": turn_block(directory, None)},
        {"role": "user", "content": "How many photos are in Maple Clinic?"},
    ]
    async with httpx.AsyncClient(transport=transport) as http:
        events = [e async for e in stream_completion(http, config, messages, tools=tools)]
    completion = events[-1]
    assert isinstance(completion, Completion)
    assert completion.finish_reason == "tool_calls"
    assert {c.name for c in completion.tool_calls} == {"query_data"}


@pytest.mark.crossing("seam:capabilities>pep")
def test_the_pep_allows_exactly_the_listed_tools_each_tier_maps_to() -> None:
    listed = [t["name"] for t in producers.tools_list()["tools"]]
    assert sorted(listed) == sorted(TOOL_CAPABILITY)
    for tier in TIERS:
        granted = granted_capabilities([tier])
        for tool in listed:
            assert decide(tool, [tier], capability_hint=None).allowed is (
                TOOL_CAPABILITY[tool] in granted
            )


@pytest.mark.crossing("seam:stub-catalog>policy-catalog")
def test_catalog_scoping_keeps_the_stubs_tools_a_tier_may_call() -> None:
    listed = producers.tools_list()["tools"]
    kept = scope_catalog(listed, granted_capabilities(["professional"]))
    assert [t["name"] for t in kept] == [
        t["name"] for t in listed if TOOL_CAPABILITY[t["name"]] in {"core", "documents", "progress"}
    ]
    assert all("outputSchema" in t for t in kept)


@pytest.mark.crossing("seam:stub-tokens>auth-verify")
def test_a_token_the_stub_mints_verifies_against_the_stubs_jwks() -> None:
    from stub_server.tokens import AUDIENCE, ISSUER, TokenIssuer

    issuer = TokenIssuer()
    keys = parse_jwks(json.dumps(issuer.jwks()))
    policy = TokenPolicy(ISSUER, AUDIENCE, frozenset(TIERS))
    identity = verify_with_keys(issuer.mint("crossing", ["enterprise"]), keys, policy)
    assert (identity.sub, identity.tiers) == ("crossing", frozenset({"enterprise"}))


def _pages(arguments: dict[str, Any], limit: int = 8) -> list[dict[str, Any]]:
    pages = [producers.tool_result("list_annotations", arguments)]
    while pages[-1]["structuredContent"]["has_more"] and len(pages) < limit:
        cursor = pages[-1]["structuredContent"]["cursor"]
        pages.append(producers.tool_result("list_annotations", {**arguments, "cursor": cursor}))
    return pages


@pytest.mark.crossing("seam:stub-pages>stitcher")
def test_the_stubs_pages_stitch_into_one_disjoint_id_set() -> None:
    pages = _pages({"project_id": MC, "limit": 20, "status": "open"})
    stitched = stitch_pages(pages)
    assert stitched.ok and len(stitched.ids) == len(set(stitched.ids))
    assert stitched.total == pages[0]["structuredContent"]["total"]


@pytest.mark.crossing("seam:stub-faults>failure-verdict")
@pytest.mark.parametrize(
    ("mode", "failed"),
    [
        ("ok", False),
        ("zero_hits", False),
        ("inband_502", True),
        ("auth_empty", True),
        ("prose_reply", True),
        ("degraded_empty", True),
        ("legacy", False),  # its text still opens with the program-owned "Search results for "
        ("cursor_rejected", True),
    ],
)
def test_each_fault_shape_the_stub_makes_is_judged_as_specified(mode: str, failed: bool) -> None:
    result = producers.tool_result("search_photos", PHOTOS, mode)
    assert is_in_band_failure("search_photos", result) is failed


# Each evidence shape the turn can meet: (tool, arguments, fault mode).
_SHAPES = {
    "search-lower-bound": ("search_photos", PHOTOS, "ok"),
    "saturated-listing": ("query_data", SATURATED, "ok"),
    "exact-aggregate": (
        "query_data",
        {"project_id": "prj-harbor-tower", "question": "How many panoramas are in Harbor Tower?"},
        "ok",
    ),
    "zero-hits": ("search_photos", PHOTOS, "zero_hits"),
    "legacy": ("search_photos", PHOTOS, "legacy"),
    "in-band-502": ("search_photos", PHOTOS, "inband_502"),
}


@pytest.mark.crossing("seam:anchors>rules-narrator")
@pytest.mark.parametrize("locale", ["en", "ko", "ja", "de", "es"])
@pytest.mark.parametrize("shape", sorted(_SHAPES))
def test_the_narration_code_builds_from_real_anchors_passes_the_guard(
    shape: str, locale: str
) -> None:
    """The fallback a disobedient model degrades to must itself be publishable whole:
    real results → evidence → anchor records → code narrator → guard, nothing dropped."""
    from beacon.loop.fallback_narrator import narrate
    from beacon.loop.guarded_answer import count_of, guarded, turn_standing

    tool, arguments, mode = _SHAPES[shape]
    evidence = adjudicate(
        outcome(tool, arguments, mode),
        call_id="c1",
        slot="c1",
        sentinel=3000,
        project_id=str(arguments["project_id"]),
    )
    records = anchor_records([evidence], "the question")
    projects = {MC: "Maple Clinic", "prj-harbor-tower": "Harbor Tower"}
    directory = [{"id": k, "name": v} for k, v in projects.items()]
    count = count_of(evidence)
    slots = {count.slot: count}
    # With the slots' values, as the turn narrates: nouns agree, shown sets by grade.
    built = " ".join(narrate(records, locale, projects=projects, slots=slots))
    assert built.strip(), records
    # Given as the model's own text, the code's narration loses no sentence to the guard.
    published = guarded(
        built,
        slots,
        turn_standing([count], [evidence], directory, None),
        locale,
        records=records,
        projects=projects,
    )
    assert published.drops == () and not published.fallback, published.drops
    assert published.text.strip()
