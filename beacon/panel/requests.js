// The chat server's routes as the panel calls them. Every request goes to this
// module's own origin (the chat server that served the panel) with the bearer
// in a header; a network failure reads as "no answer" (null, []) where the
// caller has nothing better to say.

export const CHAT_ORIGIN = new URL(import.meta.url).origin;

function headers(token, extra) {
  return { ...extra, Authorization: `Bearer ${token}` };
}

/** POST /v1/turns: the question, answered as an event stream. Throws on a network failure. */
export function postTurn(token, body) {
  return fetch(new URL("/v1/turns", CHAT_ORIGIN), {
    method: "POST",
    headers: headers(token, {
      "Content-Type": "application/json",
      Accept: "text/event-stream",
    }),
    body: JSON.stringify(body),
  });
}

/** A turn's frames after `after` (a reattach, or 0 to draw it again); null when refused or unreachable. */
export async function turnEvents(token, turnId, after) {
  const url = new URL(`/v1/turns/${encodeURIComponent(turnId)}/events`, CHAT_ORIGIN);
  url.searchParams.set("after", String(after));
  try {
    const response = await fetch(url, {
      headers: headers(token, { Accept: "text/event-stream", "Last-Event-ID": String(after) }),
    });
    return response.ok ? response : null;
  } catch {
    return null;
  }
}

/** POST /v1/turns/{id}/more: the next page of a slot's cards. Throws on a network failure. */
export function postMore(token, turnId, slot) {
  return fetch(new URL(`/v1/turns/${encodeURIComponent(turnId)}/more`, CHAT_ORIGIN), {
    method: "POST",
    headers: headers(token, { "Content-Type": "application/json" }),
    body: JSON.stringify({ slot }),
  });
}

/** The chat session's messages (GET /v1/sessions/{id}); null when they cannot be had. */
export async function sessionMessages(token, sessionId) {
  try {
    const response = await fetch(new URL(`/v1/sessions/${encodeURIComponent(sessionId)}`, CHAT_ORIGIN), {
      headers: headers(token, { Accept: "application/json" }),
    });
    if (!response.ok) return null;
    const body = await response.json();
    return Array.isArray(body?.messages) ? body.messages : null;
  } catch {
    return null;
  }
}

/** The names of the projects the caller's token sees; [] when they cannot be had. */
export async function projectsOf(token) {
  try {
    const response = await fetch(new URL("/v1/projects", CHAT_ORIGIN), {
      headers: headers(token, { Accept: "application/json" }),
    });
    if (!response.ok) return [];
    const body = await response.json();
    const projects = Array.isArray(body?.projects) ? body.projects : [];
    return projects.map((p) => p?.name).filter((n) => typeof n === "string" && n.length > 0);
  } catch {
    return [];
  }
}

// FastAPI validation: {"detail": [{loc, msg}]}; ours: {"error": {code, message}}.
export async function describeFailure(response) {
  let body = null;
  try {
    body = await response.json();
  } catch {
    body = null;
  }
  const fallback = { code: `http_${response.status}`, message: response.statusText || "" };
  if (!body || typeof body !== "object") return fallback;
  if (body.error && typeof body.error === "object") {
    return {
      code: String(body.error.code ?? fallback.code),
      message: String(body.error.message ?? fallback.message),
    };
  }
  if (Array.isArray(body.detail)) {
    const parts = body.detail.map((d) => {
      const where = Array.isArray(d?.loc) ? d.loc.join(".") : "";
      return where ? `${where}: ${d?.msg ?? ""}` : String(d?.msg ?? "");
    });
    return { code: "invalid_request", message: parts.join("; ") };
  }
  if (typeof body.detail === "string") return { code: fallback.code, message: body.detail };
  return fallback;
}

/**
 * What a refused request says. A 401 is the token's fault (503 would be the key
 * set's): say whether it expired or was not accepted, and how to get a new one.
 */
export function refusedText(status, failure, copy) {
  const head = copy.refused(status);
  if (status === 401) {
    // The server's reason (the signature, the audience, …) helps with a token that
    // was refused; an expired one needs no more than the word.
    const why =
      failure.code === "auth_expired"
        ? copy.authExpired
        : `${copy.authRejected}${failure.message ? ` (${failure.message})` : ""}`;
    return `${head}: ${why} ${copy.newToken}`;
  }
  return `${head}${failure.message ? `: ${failure.message}` : ""}`;
}
