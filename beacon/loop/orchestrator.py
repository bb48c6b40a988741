"""One turn: context, gathering rounds, references, the answer call, one terminal.

The order is the contract, and this module only keeps it: the stages do the
work (``gather`` → ``dispatch`` per call → ``answer``), over one
``TurnState``. Grades and references are fixed from structured fields before
the answer call; a call the caller may not make is blocked before it goes
out; the answer is saved before any of it is published; the turn ends in
exactly one terminal, with heartbeats while it waits.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from functools import partial
from typing import Any

import anyio
from opentelemetry.context import Context
from opentelemetry.trace import Span, StatusCode, use_span

from beacon.auth.verify import Identity
from beacon.llm.errors import LlmError
from beacon.loop.answer import answer
from beacon.loop.conversation import conversation
from beacon.loop.errors import LoopError
from beacon.loop.evidence import tool_call_rows
from beacon.loop.frames import Frame, FrameMaker
from beacon.loop.gather import MAX_GATHER_ROUNDS, gather
from beacon.loop.narrowing_state import resume
from beacon.loop.screen import screen_question
from beacon.loop.state import TurnDeps, TurnState, new_turn_id
from beacon.store.errors import StoreError
from beacon.store.records import Message
from beacon.telemetry import metrics
from beacon.telemetry.tracing import ANSWER_SPAN, TURN_ID, TURN_SPAN, tracer
from beacon.upstream.errors import UpstreamError
from beacon.upstream.mcp_client import leaf_errors
from beacon.wire.turns import TurnRequest

__all__ = ["MAX_GATHER_ROUNDS", "Turn", "TurnDeps", "new_turn_id"]

log = logging.getLogger(__name__)

TRANSCRIPT_MESSAGES = 12
_KNOWN = (UpstreamError, LlmError, LoopError, StoreError)


def _known_error(exc: BaseException) -> BaseException | None:
    """The first of our own errors inside ``exc`` (unwrapping exception groups)."""
    return next((leaf for leaf in leaf_errors(exc) if isinstance(leaf, _KNOWN)), None)


def _history(transcript: list[Message]) -> list[dict[str, Any]]:
    return [{"role": m.role, "content": m.text} for m in transcript[-TRANSCRIPT_MESSAGES:]]


class Turn:
    def __init__(
        self,
        request: TurnRequest,
        *,
        identity: Identity,
        bearer: str,
        scenario: str | None,
        deps: TurnDeps,
        turn_id: str,
        session_id: str | None,
        trace_parent: Context | None = None,
    ) -> None:
        self.bearer = bearer
        # The caller's W3C trace context (``traceparent`` on the request), if any.
        self.trace_parent = trace_parent
        self.error_code: str | None = None  # the code of the turn's error terminal
        # Set once `start` is out: the turn's first tool call or model request waits.
        self.started = asyncio.Event()
        self.state = TurnState(
            request=request,
            identity=identity,
            scenario=scenario,
            deps=deps,
            frames=FrameMaker(turn_id),
            session_id=session_id,
        )

    @property
    def turn_id(self) -> str:
        return self.state.turn_id

    async def run(self) -> AsyncIterator[Frame]:
        """Frames in order, ending with exactly one terminal."""
        state = self.state
        state.emit(
            "start", session_id=state.session_id, mode=state.request.mode, locale=state.locale
        )
        start = await state.queue.get()
        # The turn's span: the parent of its rounds, tool calls, model requests and the
        # answer stage, and the trace context its upstream requests carry.
        span = tracer().start_span(
            TURN_SPAN,
            context=self.trace_parent,
            attributes={TURN_ID: state.turn_id, "beacon.mode": state.request.mode},
        )
        # The turn's preparation (its question screened, its session's transcript
        # read, its upstream session opened) overlaps its `start` being stored and
        # sent; its first tool call or model request waits for `start` to be out,
        # which the consumer says by asking for the next frame (server/hub.py).
        worker = asyncio.create_task(self._traced(span))
        beats: asyncio.Task[None] | None = None
        try:
            yield start
            self.started.set()
            beats = asyncio.create_task(self._heartbeats())
            while True:
                frame = await state.queue.get()
                await state.released()  # a tool call's request leaves first
                yield frame
                if frame.type in ("done", "error"):
                    return
        finally:
            if beats is not None:
                beats.cancel()
            if not self.started.is_set():
                # Closed at `start` (the store refused it): the work stops before
                # its first tool call or model request.
                worker.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await worker

    async def _heartbeats(self) -> None:
        state = self.state
        while True:
            await anyio.sleep(state.deps.heartbeat_s)
            if state.queue.empty() and state.frames.allows("heartbeat"):
                state.emit("heartbeat")

    async def _session_context(self) -> None:
        """Chat mode: the transcript (planner and answer call) and the session's narrowing."""
        state = self.state
        if state.session_id is None or state.request.mode != "chat":
            return
        store = state.deps.store
        transcript = await anyio.to_thread.run_sync(store.transcript, state.session_id)
        state.history = _history(transcript)
        state.conversation = await anyio.to_thread.run_sync(conversation, store, transcript)
        record = await anyio.to_thread.run_sync(store.load_narrowing, state.session_id)
        state.narrowing = resume(record, state.request.message)

    async def _traced(self, span: Span) -> None:
        """The turn's work with its span current (in this task's own context)."""
        with use_span(span, end_on_exit=True):
            await self._produce()
            span.set_attribute("beacon.terminal", "error" if self.error_code else "done")
            if self.error_code:
                span.set_attribute("beacon.error", self.error_code)
                span.set_status(StatusCode.ERROR)

    async def _produce(self) -> None:
        state = self.state
        try:
            # The question's filters first: a blocked one reaches no model, no upstream.
            await screen_question(state)
            await self._session_context()
            await state.deps.pause()
            async with state.deps.upstream.open(
                bearer=self.bearer, scenario=state.scenario, turn_id=state.turn_id
            ) as upstream:
                await self.started.wait()
                await gather(state, upstream)
                # Answered inside the session so that closing it (a DELETE to the
                # upstream, ~2 ms) happens after the terminal frame is out, not before.
                with tracer().start_as_current_span(
                    ANSWER_SPAN, attributes={TURN_ID: state.turn_id}
                ):
                    await answer(state)
                if not await state.deps.published():
                    # The answer's commit was refused (it ends in save_failed, or another
                    # process ended the turn): its audit rows are kept on their own.
                    await self._flush_audit()
        except Exception as exc:
            # Nothing of the turn is written before its row is (with `start`).
            await self.started.wait()
            if not state.frames.allows("error"):
                # The turn already ended (its answer is saved and published); only
                # closing the upstream session failed, which the user need not hear.
                log.warning("turn %s: after its terminal: %r", state.turn_id, exc)
                return
            await self._flush_audit()
            # Errors raised inside the MCP session's task group arrive wrapped.
            known = _known_error(exc)
            code = getattr(known, "code", "turn_failed") if known is not None else "internal"
            if isinstance(known, UpstreamError):
                metrics.upstream_error("mcp", code)
            if isinstance(known, UpstreamError | LlmError):
                # A dependency failed the turn: one line says which and how, since the
                # user's error frame is not where an operator looks.
                log.warning("turn %s failed: %s: %s", state.turn_id, code, known)
            if code == "internal":
                # Beacon's own fault (an illegal frame order among them): keep the traceback.
                log.exception("turn %s failed", state.turn_id)
            self._fail(code, str(known) if known is not None else "the turn failed inside Beacon")

    async def _flush_audit(self) -> None:
        state = self.state
        rows, state.audit = state.audit, []
        blocks, state.filter_audit = state.filter_audit, []
        calls = tool_call_rows(state.turn_id, state.made)
        if rows or calls or blocks:
            try:
                await anyio.to_thread.run_sync(
                    partial(
                        state.deps.store.record_audit,
                        rows,
                        calls,
                        turn_id=state.turn_id,
                        narration=blocks,
                    )
                )
            except Exception:
                log.exception("turn %s: %d audit rows not written", state.turn_id, len(rows))

    def _fail(self, code: str, message: str) -> None:
        if self.state.frames.allows("error"):
            self.error_code = code
            self.state.emit("error", code=code, message=message)
