// Following a turn with the browser's own EventSource: the example a host copies.
//
// EventSource can send no Authorization header, so the caller first mints a stream
// ticket with its bearer (POST /v1/turns/{id}/ticket → {ticket, expires_in}) and
// opens GET /v1/turns/{id}/events?ticket=… — a ticket opens that one turn's
// events for minutes; the bearer itself never goes in a URL (a URL is logged).
//
// The name clash: the server's terminal `error` frame (SPEC §4 fixes the frame
// names) and EventSource's own connection-error event both arrive as "error".
// They are told apart by `data`: the frame is a MessageEvent carrying JSON; the
// connection error is a bare Event with none. After a terminal frame this client
// closes the source itself; one that does not is answered 204 on its reconnect,
// which ends EventSource's reconnecting (readyState CLOSED).

// The frame names and the terminal ones, from the generated vocabulary (SPEC §4): a
// host that copies this file copies that list with it.
import { FRAME_TYPES, TERMINAL_FRAMES } from "/panel/vocabulary.js";

export { FRAME_TYPES };
const TERMINAL = new Set(TERMINAL_FRAMES);

export async function mintTicket(chatOrigin, bearer, turnId) {
  const url = new URL(`/v1/turns/${encodeURIComponent(turnId)}/ticket`, chatOrigin);
  const response = await fetch(url, {
    method: "POST",
    headers: { Authorization: `Bearer ${bearer}`, Accept: "application/json" },
  });
  if (!response.ok) throw new Error(`ticket refused: ${response.status}`);
  return (await response.json()).ticket;
}

export function eventsUrl(chatOrigin, turnId, ticket) {
  const url = new URL(`/v1/turns/${encodeURIComponent(turnId)}/events`, chatOrigin);
  url.searchParams.set("ticket", ticket);
  return url;
}

// A server frame has string data; EventSource's own "error" event has none.
export function isServerFrame(event) {
  return typeof event.data === "string";
}

// handlers: onFrame({type, seq, data}), onConnectionError(readyState), onEnd(how)
export function followTurn(url, { onFrame, onConnectionError, onEnd } = {}) {
  const source = new EventSource(url);
  let ended = false;
  const finish = (how) => {
    if (ended) return;
    ended = true;
    source.close();
    onEnd?.(how);
  };
  for (const type of FRAME_TYPES) {
    source.addEventListener(type, (event) => {
      if (!isServerFrame(event)) {
        // Only "error" can arrive without data: the connection's, not the turn's.
        // CONNECTING: EventSource will retry (after the server's `retry:` hint);
        // CLOSED: it gave up (a refused ticket, a 204 after the end).
        onConnectionError?.(source.readyState);
        if (source.readyState === EventSource.CLOSED) finish({ kind: "connection" });
        return;
      }
      const frame = { type, seq: Number(event.lastEventId), data: JSON.parse(event.data) };
      onFrame?.(frame);
      if (TERMINAL.has(type)) finish({ kind: "frame", frame });
    });
  }
  return { close: () => finish({ kind: "closed" }), source };
}
