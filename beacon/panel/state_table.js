// The panel state table: 11 states × 21 events, every cell a row with an id,
// a verdict and (when illegal) a named reason. Only frames and the panel's own
// request outcomes drive it; a refused event leaves the panel where it was.
// The legal cells are written out below; every other cell is illegal, and
// `illegalReason` names why, so a test can pin each of the 231 rows.

import { FRAME_TYPES, TERMINAL_FRAMES } from "./vocabulary.js";

export const STATES = Object.freeze([
  "idle",
  "sending",
  "planning",
  "gathering",
  "streaming",
  "complete",
  "complete-sample",
  "empty-with-standing",
  "unknown",
  "denied",
  "failed",
]);

// `done` is split by the verdict the frames so far support (see reducer.js
// `settleEvent`), so the table, not the drawing code, decides the end state.
export const DONE_EVENTS = Object.freeze([
  "done-complete",
  "done-sample",
  "done-empty",
  "done-unknown",
  "done-denied",
  "done-failure",
]);

// The frame types are the server's (generated vocabulary), `done` split as above.
const splitDone = (type) => (type === "done" ? DONE_EVENTS : [type]);

export const EVENTS = Object.freeze([
  "send", // the user (or an option button) sends a message
  ...FRAME_TYPES.flatMap(splitDone),
  "refused", // the server answered the request with a non-2xx before any stream
  "dropped", // the stream closed without a terminal; the panel will reattach
  "unterminated", // reattaching failed too: the turn did not finish for us
  "more-sample", // a loaded page left a subset on screen
  "more-complete", // a loaded page completed the set
]);

export const BUSY = Object.freeze(["sending", "planning", "gathering", "streaming"]);
export const SETTLED = Object.freeze([
  "complete",
  "complete-sample",
  "empty-with-standing",
  "unknown",
  "denied",
  "failed",
]);

const DONE_TO = {
  "done-complete": "complete",
  "done-sample": "complete-sample",
  "done-empty": "empty-with-standing",
  "done-unknown": "unknown",
  "done-denied": "denied",
  "done-failure": "failed",
};

const ENDINGS = { ...DONE_TO, error: "failed", unterminated: "failed" };

/** Legal cells only: state → event → next state. */
export const LEGAL = Object.freeze({
  idle: { send: "sending" },
  sending: { start: "planning", refused: "failed", unterminated: "failed" },
  planning: {
    plan: "planning",
    tool_call: "gathering",
    tool_result: "gathering",
    references: "gathering",
    notice: "planning",
    heartbeat: "planning",
    delta: "streaming",
    dropped: "planning",
    ...ENDINGS,
  },
  gathering: {
    plan: "gathering",
    tool_call: "gathering",
    tool_result: "gathering",
    references: "gathering",
    notice: "gathering",
    heartbeat: "gathering",
    delta: "streaming",
    dropped: "gathering",
    ...ENDINGS,
  },
  streaming: {
    delta: "streaming",
    notice: "streaming",
    heartbeat: "streaming",
    dropped: "streaming",
    ...ENDINGS,
  },
  complete: { send: "sending" },
  "complete-sample": { send: "sending", "more-sample": "complete-sample", "more-complete": "complete" },
  "empty-with-standing": { send: "sending" },
  unknown: { send: "sending" },
  denied: { send: "sending" },
  failed: { send: "sending" },
});

const FRAME_EVENTS = new Set(FRAME_TYPES.filter((type) => !TERMINAL_FRAMES.includes(type)));
const TERMINAL_EVENTS = new Set(TERMINAL_FRAMES.flatMap(splitDone));

/** Why an event is illegal in a state (only asked of illegal cells). */
export function illegalReason(from, event) {
  const busy = BUSY.includes(from);
  if (event === "send") return "send-while-busy";
  if (event === "start") return from === "idle" ? "start-while-idle" : "duplicate-start";
  if (event === "more-sample" || event === "more-complete") return "more-without-a-sample";
  if (event === "refused") return busy ? "refused-after-start" : "refused-without-request";
  if (event === "dropped" || event === "unterminated") {
    return busy ? `${event}-before-start` : `${event}-while-${from}`;
  }
  if (from === "idle") return `${event}-while-idle`;
  if (from === "sending") {
    const name = TERMINAL_EVENTS.has(event) ? event.split("-")[0] : event;
    return `${name}-before-start`;
  }
  if (from === "streaming" && FRAME_EVENTS.has(event)) return `${event}-after-delta`;
  if (SETTLED.includes(from)) return TERMINAL_EVENTS.has(event) ? "duplicate-terminal" : "after-terminal";
  return `${event}-in-${from}`;
}

/** Every cell of the table as a row: {id, from, event, to, legal, reason}. */
export const ROWS = Object.freeze(
  STATES.flatMap((from) =>
    EVENTS.map((event) => {
      const to = LEGAL[from][event];
      return Object.freeze({
        id: `${from}--${event}`,
        from,
        event,
        to: to ?? from,
        legal: to !== undefined,
        reason: to === undefined ? illegalReason(from, event) : null,
      });
    }),
  ),
);

/** One step: {legal, to, reason}. An illegal step stays where it is. */
export function step(from, event) {
  const to = LEGAL[from]?.[event];
  if (to !== undefined) return { legal: true, to, reason: null };
  if (!STATES.includes(from)) return { legal: false, to: from, reason: `unknown-state-${from}` };
  if (!EVENTS.includes(event)) return { legal: false, to: from, reason: `unknown-event-${event}` };
  return { legal: false, to: from, reason: illegalReason(from, event) };
}
