// Pure reducer: SSE frames (SPEC §4) → the panel's view model. No DOM, no I/O.
// A turn ends in exactly one terminal, so anything arriving after `done` or
// `error` (or before `start`) is refused and never reaches the screen.

export const FRAME_TYPES = Object.freeze([
  "start",
  "plan",
  "tool_call",
  "tool_result",
  "references",
  "delta",
  "notice",
  "heartbeat",
  "done",
  "error",
]);
const TERMINALS = new Set(["done", "error"]);

/** @typedef {{kind: string, text: string, code: string|null, options: object[]}} Notice */

export function initialState() {
  return {
    phase: "idle", // idle sending planning gathering streaming complete failed
    turnId: null,
    sessionId: null,
    mode: null,
    lastSeq: null,
    terminal: null,
    prose: "",
    citations: [],
    counts: [],
    hasReferences: false,
    tools: [],
    notices: [],
    finishReason: null,
  };
}

/** A new question is on its way: a fresh turn that keeps the chat session. */
export function sending(state) {
  return { ...initialState(), sessionId: state.sessionId, phase: "sending" };
}

/** The server refused the request before any stream began (401, 422, …). */
export function requestFailed(state, { status, code, message }) {
  const label = status ? `HTTP ${status}` : "Request failed";
  return {
    ...state,
    phase: "failed",
    terminal: "error",
    notices: [...state.notices, notice("error", message ? `${label}: ${message}` : label, code)],
  };
}

/** The stream closed. Without an earned terminal the turn did not finish. */
export function streamEnded(state) {
  if (state.terminal) return state;
  return {
    ...state,
    phase: "failed",
    terminal: "error",
    notices: [
      ...state.notices,
      notice("error", "The answer stream ended before the turn finished.", "unterminated"),
    ],
  };
}

/**
 * Why a frame may not be applied, or null when it may.
 * @param {{type: string, data: any}} frame
 */
export function refusal(state, frame) {
  if (!frame || !FRAME_TYPES.includes(frame.type)) return "unknown-frame";
  const data = frame.data;
  if (data === null || typeof data !== "object") return "malformed-frame";
  if (state.terminal) return TERMINALS.has(frame.type) ? "duplicate-terminal" : "after-terminal";
  if (frame.type === "start") return state.turnId ? "duplicate-start" : null;
  if (!state.turnId) return `${frame.type}-before-start`;
  if (data.turn_id !== state.turnId) return "foreign-turn";
  if (typeof data.seq === "number" && state.lastSeq !== null && data.seq <= state.lastSeq) {
    return "stale-seq";
  }
  return null;
}

/** Apply one frame. A refused frame leaves the state untouched (same object). */
export function reduce(state, frame) {
  if (refusal(state, frame) !== null) return state;
  const d = frame.data;
  const next = { ...state, lastSeq: typeof d.seq === "number" ? d.seq : state.lastSeq };
  switch (frame.type) {
    case "start":
      return {
        ...next,
        phase: "planning",
        turnId: d.turn_id,
        sessionId: d.session_id ?? null,
        mode: d.mode ?? null,
      };
    case "plan":
      return { ...next, phase: state.prose ? state.phase : "planning" };
    case "tool_call":
      return {
        ...next,
        phase: "gathering",
        tools: [...state.tools, { callId: d.call_id, tool: d.tool, status: "pending" }],
      };
    case "tool_result":
      return {
        ...next,
        phase: "gathering",
        tools: state.tools.map((t) =>
          t.callId === d.call_id ? { ...t, status: d.status, grade: d.grade } : t,
        ),
      };
    case "references":
      return {
        ...next,
        citations: Array.isArray(d.citations) ? d.citations : [],
        counts: Array.isArray(d.counts) ? d.counts : [],
        hasReferences: true,
      };
    case "delta":
      return { ...next, phase: "streaming", prose: state.prose + String(d.text ?? "") };
    case "notice":
      return {
        ...next,
        notices: [
          ...state.notices,
          notice(d.kind, String(d.text ?? ""), null, Array.isArray(d.options) ? d.options : []),
        ],
      };
    case "heartbeat":
      return next;
    case "done":
      return {
        ...next,
        phase: "complete",
        terminal: "done",
        finishReason: d.finish_reason ?? null,
        // The deltas are the answer; `answer` only fills in when none streamed.
        prose: state.prose || String(d.answer ?? ""),
      };
    case "error":
      return {
        ...next,
        phase: "failed",
        terminal: "error",
        notices: [...state.notices, notice("error", String(d.message ?? ""), d.code ?? null)],
      };
    default:
      return state;
  }
}

/** @returns {Notice} */
function notice(kind, text, code = null, options = []) {
  return { kind: String(kind ?? "notice"), text, code: code === null ? null : String(code), options };
}
