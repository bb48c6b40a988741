// The conversation kept for the tab. Turn ids (and the chat session) live in
// sessionStorage beside the token, so a reload or Back from a citation draws the
// conversation again from the server: each turn replayed from its own frames.

import { initialState, reduce, refusal, sending } from "./reducer.js";
import { sessionMessages, turnEvents } from "./requests.js";
import { readEvents, toFrame } from "./sse.js";
import { BUSY } from "./state_table.js";

// How many turn ids the tab keeps to draw again after a reload or Back.
const KEPT_TURNS = 10;
const TURNS_KEY = "beacon.turns";

/** What the tab kept: `{turns, asked, mode, sessionId}`; empty when nothing (readable) was. */
export function keptTurns() {
  try {
    const raw = JSON.parse(window.sessionStorage.getItem(TURNS_KEY) ?? "null");
    if (raw && Array.isArray(raw.turns)) {
      return {
        turns: raw.turns.filter((id) => typeof id === "string").slice(-KEPT_TURNS),
        asked: raw.asked && typeof raw.asked === "object" ? raw.asked : {},
        mode: raw.mode === "chat" ? "chat" : "single",
        sessionId: typeof raw.sessionId === "string" ? raw.sessionId : null,
      };
    }
  } catch {
    // storage refused or unreadable: the page starts empty
  }
  return { turns: [], asked: {}, mode: "single", sessionId: null };
}

function keepTurns(kept) {
  try {
    window.sessionStorage.setItem(TURNS_KEY, JSON.stringify(kept));
  } catch {
    // not kept: a reload starts with an empty page
  }
}

/** The turn `st` has started, asked as `asked`, joins `kept` (the oldest beyond the limit go). */
export function remember(kept, st, asked) {
  const turns = [...kept.turns.filter((id) => id !== st.turnId), st.turnId].slice(-KEPT_TURNS);
  const askedBy = Object.fromEntries(
    Object.entries({ ...kept.asked, [st.turnId]: asked }).filter(([id]) => turns.includes(id)),
  );
  Object.assign(kept, { turns, asked: askedBy, mode: st.mode ?? kept.mode, sessionId: st.sessionId ?? null });
  keepTurns(kept);
}

/** Single questions from now on: the chat session is no longer continued. */
export function forgetSession(kept) {
  Object.assign(kept, { mode: "single", sessionId: null });
  keepTurns(kept);
}

/**
 * The turns to draw again, oldest first, each `{id, question, messages}`: the chat
 * session's as the server has it, else the ids kept. `sessionId` is the session
 * the server still knows (null when it was not asked or did not answer).
 */
export async function pastTurns(token, kept) {
  let ids = kept.turns;
  let texts = new Map();
  let sessionId = null;
  if (kept.mode === "chat" && kept.sessionId) {
    const messages = await sessionMessages(token, kept.sessionId);
    if (messages) {
      ids = [...new Set(messages.map((m) => m.turn_id))];
      texts = new Map(ids.map((id) => [id, messages.filter((m) => m.turn_id === id)]));
      sessionId = kept.sessionId;
    }
  }
  const turns = ids.map((id) => {
    const question = texts.get(id)?.find((m) => m.role === "user")?.text ?? kept.asked[id] ?? "";
    return { id, question: String(question), messages: texts.get(id) };
  });
  return { turns, sessionId };
}

/** An earlier turn's settled state, reduced from its own frames; null when it cannot be had. */
export async function replayedState(token, turnId) {
  const response = await turnEvents(token, turnId, 0);
  if (!response) return null;
  let st = sending(initialState());
  try {
    for await (const event of readEvents(response)) {
      const frame = toFrame(event);
      if (frame && refusal(st, frame) === null) st = reduce(st, frame);
    }
  } catch {
    return null;
  }
  if (st.turnId !== turnId || BUSY.includes(st.phase)) return null;
  return st;
}
