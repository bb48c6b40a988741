"""``scripted:<name>`` models: canned misbehaviours of real endpoints, for tests (SPEC §2.2).

Each script misbehaves at one point of a turn and otherwise answers like
``beacon-rules``, so a test sees exactly one fault: ``at="answer"`` bends only
tool-free calls (the responder / finalization), ``at="plan"`` only tool-bearing
ones, ``at="always"`` every call.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Literal

from stub_server.rules_model import Reply, _last_user, _text, plan
from stub_server.rules_narrator import narrate

PREFIX = "scripted:"
RULES = "beacon-rules"
At = Literal["answer", "plan", "always"]
# A planner that counts by listing, then obeys the loop's aggregate correction or not.
ListsCounts = Literal["obeys", "ignores"]

# The measured shape (seed 003): a DeepSeek endpoint wrote its tool-call protocol
# into ``choices[].delta.content`` with a ``stop`` finish and no structured calls.
DSML_BLOCK = (
    "<｜DSML｜function_calls>\n"
    '<｜DSML｜invoke name="search_photos">\n'
    '<｜DSML｜parameter name="query" string="true">missing hard hats</｜DSML｜parameter>\n'
    "</｜DSML｜invoke>\n"
    "</｜DSML｜function_calls>"
)
FENCED_EXAMPLE = (
    "Nothing was called on your behalf. For reference, the markup an endpoint may leak "
    "looks like this:\n```\n" + DSML_BLOCK + "\n```\nIt is shown here as text only."
)
NARRATION_BEFORE_DSML = "Let me check the latest photos for you before answering.\n\n"
OVERCLAIM = "I found 10 photos that match your question."
DENIAL = (
    "Access denied: your current licence tier does not include this data. "
    "Ask your administrator to upgrade the plan to unlock it."
)
CONTENT_FILTER_TEXT = "I can't"
# DeepSeek's own non-OpenAI finish reason: a real endpoint sends it, clients rarely expect it.
UNKNOWN_FINISH = "insufficient_system_resource"


@dataclass(frozen=True, slots=True)
class HttpFailure:
    status: int
    type: str
    code: str
    message: str

    def body(self) -> dict[str, Any]:
        return {"error": {"message": self.message, "type": self.type, "code": self.code}}


@dataclass(frozen=True, slots=True)
class Script:
    name: str
    description: str
    at: At
    reply: Reply | None = None  # the canned answer, when not an HTTP failure or a stall
    failure: HttpFailure | None = None
    stall: bool = False
    budget_exhaust: bool = False
    overclaim: bool = False
    once: bool = False  # misbehave on the turn's first answer call only (a repair then works)
    direct: bool = False  # plan exactly the call the question spells out: "CALL tool {json}"
    narrates: bool = False  # answer with the narration a test registered for the question
    lists_counts: ListsCounts | None = None  # "how many" planned as a listing (see _lists_counts)
    drops: str | None = None  # a constraint axis whose arguments it leaves out (see _drops)
    ignores_correction: bool = False  # and it stops when asked to apply them
    adds: str | None = None  # a filter axis it adds, unasked, to its calls (see _adds)

    def applies(self, has_tools: bool) -> bool:
        return self.at == "always" or (self.at == "plan") == has_tools


def _http(status: int, type_: str, code: str, message: str) -> Script:
    failure = HttpFailure(status, type_, code, message)
    return Script(f"http-{status}", f"every call answers HTTP {status}", "always", failure=failure)


SCRIPTS: dict[str, Script] = {
    s.name: s
    for s in (
        Script("dsml", "protocol markup as the answer", "answer", Reply(DSML_BLOCK)),
        Script(
            "dsml-once",
            "protocol markup, then a good repair",
            "answer",
            Reply(DSML_BLOCK),
            once=True,
        ),
        Script(
            "direct",
            "calls exactly the tool the question names, even a hidden one",
            "plan",
            direct=True,
        ),
        Script(
            "dsml-fenced",
            "explains the markup in a fenced example",
            "answer",
            Reply(FENCED_EXAMPLE),
        ),
        Script(
            "narrated-dsml",
            "a sentence, then a bare DSML block",
            "answer",
            Reply(NARRATION_BEFORE_DSML + DSML_BLOCK),
        ),
        Script("overclaims", "writes 'I found 10' itself", "answer", overclaim=True),
        Script(
            "narrates",
            "answers with the narration a test registered for the question (POST /dev/narrations)",
            "answer",
            narrates=True,
        ),
        Script("empty", "an empty answer with a stop finish", "answer", Reply("")),
        Script("restates-denial", "repeats a licence denial", "answer", Reply(DENIAL)),
        Script(
            "content-filter",
            "cut by the provider's filter",
            "answer",
            Reply(CONTENT_FILTER_TEXT, finish="content_filter"),
        ),
        Script(
            "unknown-finish",
            "a finish reason outside the OpenAI set",
            "answer",
            Reply("The answer is", finish=UNKNOWN_FINISH),
        ),
        Script("stall", "sends headers, then nothing past the deadline", "answer", stall=True),
        Script("budget-exhaust", "calls a tool every round", "plan", budget_exhaust=True),
        Script(
            "lists-counts",
            "lists for a 'how many' question, then obeys the aggregate correction",
            "plan",
            lists_counts="obeys",
        ),
        Script(
            "lists-always",
            "lists for a 'how many' question, and lists again when corrected",
            "plan",
            lists_counts="ignores",
        ),
        _http(400, "invalid_request_error", "context_length_exceeded", "Prompt is too long."),
        _http(401, "authentication_error", "invalid_api_key", "Authentication Fails."),
        _http(402, "insufficient_quota", "insufficient_balance", "Insufficient Balance."),
        _http(403, "permission_error", "permission_denied", "This key may not use this model."),
        _http(422, "invalid_request_error", "invalid_parameters", "Invalid parameters."),
        _http(429, "rate_limit_error", "rate_limit_exceeded", "Rate limit reached."),
    )
}


# The arguments that carry each constraint axis; a dropping planner leaves them out.
DROPPED_ARGUMENTS: dict[str, tuple[str, ...]] = {
    "date": ("date_from", "date_to"),
    "level": ("level_number",),
    "person": ("inspector",),
    "status": ("status",),
    "company": ("company",),
    "topic": ("query",),
}
SCRIPTS.update(
    {
        f"drops-{axis}{suffix}": Script(
            f"drops-{axis}{suffix}",
            f"leaves the {axis} constraint out of its calls, then "
            + ("stops when asked to apply it" if ignores else "applies it when asked"),
            "plan",
            drops=axis,
            ignores_correction=ignores,
        )
        for axis in DROPPED_ARGUMENTS
        for suffix, ignores in (("", False), ("-ignores", True))
    }
)

# What an adding planner sends on each axis, unasked: a real model's assumption.
ADDED_ARGUMENTS: dict[str, dict[str, Any]] = {
    "person": {"inspector": "Dana Whitfield"},
    "status": {"status": "closed"},
    "level": {"level_number": 2},
}
SCRIPTS.update(
    {
        f"adds-{axis}": Script(
            f"adds-{axis}",
            f"adds a {axis} filter the question never named to its calls",
            "plan",
            adds=axis,
        )
        for axis in ADDED_ARGUMENTS
    }
)


def model_names() -> list[str]:
    return [RULES, *(PREFIX + name for name in SCRIPTS)]


def resolve(model: str) -> Script | None:
    """``beacon-rules`` → None (no script); ``scripted:x`` → its script; else KeyError."""
    if model == RULES:
        return None
    if model.startswith(PREFIX) and model[len(PREFIX) :] in SCRIPTS:
        return SCRIPTS[model[len(PREFIX) :]]
    raise KeyError(model)


def _keep_calling(messages: list[dict[str, Any]], tool_names: set[str]) -> Reply:
    user_index, _ = _last_user(messages)
    rounds = sum(1 for m in messages[user_index + 1 :] if m.get("role") == "assistant") + 1
    # Plan as if no tool had answered yet, so every round asks again.
    calls = plan(messages[: user_index + 1], tool_names).tool_calls
    if not calls and "list_projects" in tool_names:
        calls = [{"type": "function", "function": {"name": "list_projects", "arguments": "{}"}}]
    return Reply("", [{**call, "id": f"call_r{rounds}_{k}"} for k, call in enumerate(calls, 1)])


def _direct_call(messages: list[dict[str, Any]]) -> Reply:
    """A model that ignores its catalog: it calls the tool the question names.

    Used to drive every tool through the real dispatch path, hidden ones too,
    so the permission gate is tested where a hallucinated call would arrive.
    """
    user_index, question = _last_user(messages)
    if any(m.get("role") == "tool" for m in messages[user_index + 1 :]):
        return Reply("READY")
    verb, _, rest = question.partition(" ")
    tool, _, arguments = rest.partition(" ")
    if verb != "CALL" or not tool:
        return Reply("Say CALL <tool> <json arguments>.")
    call = {
        "id": "call_direct",
        "type": "function",
        "function": {"name": tool, "arguments": arguments or "{}"},
    }
    return Reply("", [call])


_HOW_MANY_LEAD = re.compile(r"^\s*how\s+many\s+", re.IGNORECASE)
_LINKING_VERB = re.compile(r"\s+(?:are|is|were|was)\s+(?=(?:in|on|at|of|for)\b)", re.IGNORECASE)


def _listing_question(question: str) -> str | None:
    """A count question as a listing: "How many panoramas are in X?" → "list all panoramas in X"."""
    if not _HOW_MANY_LEAD.match(question):
        return None
    subject = _LINKING_VERB.sub(" ", _HOW_MANY_LEAD.sub("", question, count=1), count=1)
    return "list all " + subject.strip(" ?.!")


def _query_call(call: dict[str, Any], call_id: str, question: str) -> dict[str, Any]:
    arguments = {**json.loads(call["function"]["arguments"]), "question": question}
    return {
        "id": call_id,
        "type": "function",
        "function": {"name": "query_data", "arguments": json.dumps(arguments)},
    }


def _lists_counts(messages: list[dict[str, Any]], tool_names: set[str], *, obeys: bool) -> Reply:
    """A planner that answers "how many" by listing (a listing stops at the row cap).

    Its first round asks query_data for the rows, then it is done — unless a
    system message naming query_data (the loop's aggregate correction) arrived
    after the question: then it asks for the COUNT (``obeys``) or lists again,
    once, and is done. Any other question is planned like ``beacon-rules``.
    """
    user_index, question = _last_user(messages)
    listing = _listing_question(question)
    first = plan(messages[: user_index + 1], tool_names).tool_calls
    if listing is None or not first or first[0]["function"]["name"] != "query_data":
        return plan(messages, tool_names)
    after = messages[user_index + 1 :]
    corrected = next(
        (i for i, m in enumerate(after) if m.get("role") == "system" and "query_data" in _text(m)),
        None,
    )
    if corrected is None:
        if any(m.get("role") == "tool" for m in after):
            return Reply("READY")
        return Reply("", [_query_call(first[0], "call_list_1", listing)])
    if any(m.get("role") == "assistant" and m.get("tool_calls") for m in after[corrected:]):
        return Reply("READY")
    if obeys:
        return Reply("", [_query_call(first[0], "call_count_2", question)])
    return Reply("", [_query_call(first[0], "call_list_2", listing)])


def _without(call: dict[str, Any], axis: str) -> dict[str, Any]:
    arguments = json.loads(call["function"]["arguments"])
    for key in DROPPED_ARGUMENTS[axis]:
        if key in arguments:
            # A search keeps a query (it is required): the subject is lost, not the call.
            arguments[key] = "photos" if key == "query" else None
    arguments = {k: v for k, v in arguments.items() if v is not None}
    return {**call, "function": {**call["function"], "arguments": json.dumps(arguments)}}


def _drops(script: Script, messages: list[dict[str, Any]], tool_names: set[str]) -> Reply:
    """A planner that drops one constraint from its first round's calls (a real model's
    slip); asked to apply it, it does (``beacon-rules`` obeys) or stops."""
    assert script.drops is not None
    user_index, _ = _last_user(messages)
    answered = any(m.get("role") == "tool" for m in messages[user_index + 1 :])
    if answered and script.ignores_correction:
        return Reply("READY")
    reply = plan(messages, tool_names)
    if answered:
        return reply
    return Reply(reply.content, [_without(c, script.drops) for c in reply.tool_calls])


def _adds(script: Script, messages: list[dict[str, Any]], tool_names: set[str]) -> Reply:
    """A planner that adds a filter of its own to every data call (a model's assumption:
    an inspector, a status, a level the question never named)."""
    assert script.adds is not None
    reply = plan(messages, tool_names)
    calls = []
    for call in reply.tool_calls:
        if call["function"]["name"] == "query_data":
            arguments = {
                **json.loads(call["function"]["arguments"]),
                **ADDED_ARGUMENTS[script.adds],
            }
            call = {**call, "function": {**call["function"], "arguments": json.dumps(arguments)}}
        calls.append(call)
    return Reply(reply.content, calls)


def scripted_reply(script: Script, messages: list[dict[str, Any]], tool_names: set[str]) -> Reply:
    """The canned reply where the script applies, ``beacon-rules`` elsewhere."""
    has_tools = bool(tool_names)
    if not script.applies(has_tools):
        return plan(messages, tool_names) if has_tools else Reply(narrate(messages))
    if script.budget_exhaust:
        return _keep_calling(messages, tool_names)
    if script.drops is not None:
        return _drops(script, messages, tool_names)
    if script.adds is not None:
        return _adds(script, messages, tool_names)
    if script.lists_counts is not None:
        return _lists_counts(messages, tool_names, obeys=script.lists_counts == "obeys")
    if script.direct:
        return _direct_call(messages)
    if script.narrates:
        # The app answers these from its narration book; reaching here means it did not.
        raise LookupError(f"scripted:{script.name} answers only through the app's narrations")
    if script.stall:
        return Reply(narrate(messages))  # reached only if the caller waited out the stall
    if script.overclaim:
        # The number is written out, bypassing the count slot the anchors handed over.
        return Reply(f"{OVERCLAIM} {narrate(messages)}")
    assert script.reply is not None, script.name
    return script.reply
