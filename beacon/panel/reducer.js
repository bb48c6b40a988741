// Pure reducer: SSE frames (SPEC §4) → the panel's view model. No DOM, no I/O.
// Which state comes next is the table's decision (state_table.js); this module
// only maps a frame to its table event and folds the frame's data in. A
// refused frame returns the same object, so nothing is redrawn.

import { step } from "./state_table.js";
import { rerendered, shownSpans } from "./shown.js";
import { FRAME_TYPES } from "./vocabulary.js";

/** @typedef {{kind: string, text: string, code: string|null, options: object[]}} Notice */

export function initialState() {
  return {
    phase: "idle",
    cause: null, // why a `failed` turn failed: an error code, "auth-expired", "source-failure", …
    turnId: null,
    sessionId: null,
    mode: null,
    locale: null, // start.locale: the language the answer is written in
    lastSeq: 0,
    prose: "",
    shown: [], // done.shown_spans: where the prose says how many cards it shows
    citations: [],
    counts: [],
    complete: false,
    hasReferences: false,
    tools: [],
    notices: [],
    finishReason: null,
    reattached: 0,
  };
}

/** Apply a table event with no frame data; an illegal one returns `state` itself. */
function move(state, event, patch = {}) {
  const verdict = step(state.phase, event);
  if (!verdict.legal) return state;
  return { ...state, ...patch, phase: verdict.to };
}

/** A new question is on its way: a fresh turn that keeps the chat session. */
export function sending(state) {
  const verdict = step(state.phase, "send");
  if (!verdict.legal) return state;
  return { ...initialState(), sessionId: state.sessionId, phase: verdict.to };
}

/** The server refused the request before any stream began (401, 422, …). */
export function requestFailed(state, { status, code, message, text }) {
  const cause = code === "auth_expired" ? "auth-expired" : code || (status ? `http_${status}` : "network");
  return move(state, "refused", {
    cause,
    notices: [...state.notices, notice("error", text ?? message ?? "", code ?? null)],
  });
}

/** The stream closed without a terminal; a reattach follows. */
export function streamDropped(state) {
  return move(state, "dropped", { reattached: state.reattached + 1 });
}

/** The stream is gone for good and no terminal was earned. */
export function streamEnded(state, text = "The answer stream ended before the turn finished.") {
  return move(state, "unterminated", {
    cause: "unterminated",
    notices: [...state.notices, notice("error", text, "unterminated")],
  });
}

/** A loaded page: more cards for one slot, that slot's new count entry, and the
 * notices the page earned (a page set aside by the stitcher is disclosed, not dropped).
 * With `number` (the turn's locale's number format), the answer's shown-set number for
 * that slot is re-rendered to the cards now on screen, at the spans the server marked
 * (`done.shown_spans`); without spans the prose is left as the server wrote it. */
export function moreLoaded(state, { slot, citations, count, notices }, { number } = {}) {
  const seen = new Set(state.citations.map((c) => c.id));
  const added = (Array.isArray(citations) ? citations : []).filter((c) => c && !seen.has(c.id));
  const before = state.counts.find((entry) => entry.slot === slot);
  const counts = state.counts.map((entry) => (entry.slot === slot && count ? count : entry));
  const moves =
    number && before && count && Number.isInteger(count.displayed) && count.displayed !== before.displayed;
  const { prose, spans } = moves
    ? rerendered(state.prose, state.shown, slot, number(count.displayed))
    : { prose: state.prose, spans: state.shown };
  const earned = (Array.isArray(notices) ? notices : [])
    .filter((n) => n && typeof n.text === "string")
    .map((n) => notice(n.kind, n.text))
    .filter((n) => !state.notices.some((o) => o.kind === n.kind && o.text === n.text));
  const next = { ...state, citations: [...state.citations, ...added], counts };
  // From `state`, not `next`: a page the phase does not take leaves the state untouched.
  return move(state, isSample(next) ? "more-sample" : "more-complete", {
    citations: next.citations,
    counts,
    prose,
    shown: spans,
    ...(earned.length > 0 ? { notices: [...state.notices, ...earned] } : {}),
  });
}

/** A page could not be loaded: say so, stay where we are. */
export function moreFailed(state, text) {
  return { ...state, notices: [...state.notices, notice("failure", text, "more_failed")] };
}

const PRIMARY = (state) => (state.counts.length > 0 ? state.counts[0] : null);

/** How many of the primary count's items are on screen, from `counts[]` only. */
export function shownFor(counts, primary) {
  if (!primary) return 0;
  return counts
    .filter((c) => c.source === primary.source && Number.isInteger(c.displayed))
    .reduce((most, c) => Math.max(most, c.displayed), 0);
}

// Part of a set is on screen: a bound or a sample by grade, or cards that are not yet
// the whole of a complete set. "Complete" is the server's word (counts[].complete, from
// beacon.adjudication.counts.is_complete), never worked out again here.
function isSample(state) {
  const primary = PRIMARY(state);
  if (!primary) return false;
  if (primary.grade === "LOWER_BOUND" || primary.grade === "SHOWN") return true;
  const shown = shownFor(state.counts, primary);
  return shown > 0 && !(primary.complete === true && shown >= primary.total);
}

/** Which `done-*` event the frames so far support: the verdict is in the frames, never the prose. */
export function settleEvent(state) {
  const kinds = new Set(state.notices.map((n) => n.kind));
  const cards = state.citations.length > 0;
  const statuses = state.tools.map((t) => t.status);
  // Nothing was answered when no card arrived and no count carries a number.
  const answered = cards || state.counts.some((c) => c.grade !== "UNKNOWN");
  if (!answered && (kinds.has("denied") || statuses.includes("denied"))) return "done-denied";
  if (!answered && (kinds.has("failure") || statuses.includes("failure"))) return "done-failure";
  const primary = PRIMARY(state);
  if (!primary) return "done-complete";
  if (primary.grade === "UNKNOWN") return "done-unknown";
  if (primary.total === 0 && !primary.has_more) return "done-empty";
  return isSample(state) ? "done-sample" : "done-complete";
}

/** The table event a frame stands for. */
export function eventOf(state, frame) {
  return frame.type === "done" ? settleEvent(state) : frame.type;
}

/**
 * Why a frame may not be applied, or null when it may. Structure first
 * (unknown type, foreign turn, replayed seq), then the state table.
 * @param {{type: string, data: any}} frame
 */
export function refusal(state, frame) {
  if (!frame || !FRAME_TYPES.includes(frame.type)) return "unknown-frame";
  const data = frame.data;
  if (data === null || typeof data !== "object") return "malformed-frame";
  const verdict = step(state.phase, eventOf(state, frame));
  if (!verdict.legal) return verdict.reason;
  if (frame.type === "start") return null;
  if (data.turn_id !== state.turnId) return "foreign-turn";
  // A reattach replays from `after`: anything at or below what we hold is a repeat.
  if (typeof data.seq === "number" && data.seq <= state.lastSeq) return "stale-seq";
  return null;
}

/** Apply one frame. A refused frame leaves the state untouched (same object). */
export function reduce(state, frame) {
  if (refusal(state, frame) !== null) return state;
  const d = frame.data;
  const to = step(state.phase, eventOf(state, frame)).to;
  const next = { ...state, phase: to, lastSeq: typeof d.seq === "number" ? d.seq : state.lastSeq };
  switch (frame.type) {
    case "start":
      // locale: the language the server answers in (Automatic sends none).
      return {
        ...next,
        turnId: d.turn_id,
        sessionId: d.session_id ?? null,
        mode: d.mode ?? null,
        locale: d.locale ?? null,
      };
    case "tool_call":
      return { ...next, tools: [...state.tools, { callId: d.call_id, tool: d.tool, status: "pending" }] };
    case "tool_result": {
      const known = state.tools.some((t) => t.callId === d.call_id);
      const entry = { callId: d.call_id, tool: d.tool, status: d.status, grade: d.grade };
      return {
        ...next,
        tools: known
          ? state.tools.map((t) => (t.callId === d.call_id ? { ...t, ...entry } : t))
          : [...state.tools, entry],
      };
    }
    case "references":
      return {
        ...next,
        citations: Array.isArray(d.citations) ? d.citations : [],
        counts: Array.isArray(d.counts) ? d.counts : [],
        complete: d.complete === true,
        hasReferences: true,
      };
    case "delta":
      return { ...next, prose: state.prose + String(d.text ?? "") };
    case "notice": {
      const incoming = notice(d.kind, String(d.text ?? ""), null, Array.isArray(d.options) ? d.options : []);
      // The same notice twice (a replay, a second denied call for one capability) is shown once.
      const dup = state.notices.some((n) => n.kind === incoming.kind && n.text === incoming.text);
      return dup ? next : { ...next, notices: [...state.notices, incoming] };
    }
    case "done": {
      // The deltas are the answer; `answer` only fills in when none streamed.
      const answer = String(d.answer ?? "");
      const prose = state.prose || answer;
      return {
        ...next,
        cause: to === "failed" ? "source-failure" : null,
        finishReason: d.finish_reason ?? null,
        prose,
        // The spans index `answer`: kept only when the prose on screen is that text.
        shown: prose === answer ? shownSpans(d.shown_spans, prose) : [],
      };
    }
    case "error":
      return {
        ...next,
        cause: String(d.code ?? "error"),
        notices: [...state.notices, notice("error", String(d.message ?? ""), d.code ?? null)],
      };
    default:
      return next;
  }
}

/** @returns {Notice} */
function notice(kind, text, code = null, options = []) {
  return { kind: String(kind ?? "notice"), text, code: code === null ? null : String(code), options };
}

/**
 * What a settled turn's badge may claim beyond its phase, from the frames only:
 * "needs-choice" when nothing was counted and a counter_question notice asks the
 * user to pick (the question is the answer); "uncounted" when the turn ended
 * `complete` with no count and no card (words only: nothing to call complete);
 * null when the phase says it all. Failed and denied turns keep their own words.
 */
export function standingOf(state) {
  if (!["complete", "complete-sample", "empty-with-standing", "unknown"].includes(state.phase)) return null;
  const counted = state.citations.length > 0 || state.counts.some((c) => c.grade !== "UNKNOWN");
  if (counted) return null;
  if (state.notices.some((n) => n.kind === "counter_question")) return "needs-choice";
  return state.phase === "complete" && state.counts.length === 0 ? "uncounted" : null;
}
