// Panel entry: wires the form to `POST /v1/turns`, feeds frames through the
// pure reducer and draws the view model. Every server-provided string is set
// with textContent: the model's words and the upstream's titles are untrusted.

import { countLine } from "./countline.js";
import { readEvents, toFrame } from "./sse.js";
import { initialState, reduce, refusal, requestFailed, sending, streamEnded } from "./state.js";

const STATUS_TEXT = {
  idle: "",
  sending: "Sending…",
  planning: "Planning…",
  gathering: "Gathering evidence…",
  streaming: "Answering…",
  complete: "Complete",
  failed: "Failed",
};
const BUSY = new Set(["sending", "planning", "gathering", "streaming"]);

const $ = (id) => document.getElementById(id);
const ui = {
  form: $("ask"),
  asked: $("asked"),
  question: $("question"),
  send: $("send"),
  mode: $("mode"),
  locale: $("locale"),
  status: $("status"),
  notices: $("notices"),
  countLine: $("count-line"),
  prose: $("prose"),
  citations: $("citations"),
};

// Standalone mode: the bearer rides in ?token=. Keep it in this closure only
// and take it out of the address bar so it is not shown, bookmarked or shared.
const token = takeToken();
let state = initialState();
let inFlight = null;
const drawn = { citations: null, notices: null };

function takeToken() {
  const url = new URL(window.location.href);
  const value = url.searchParams.get("token");
  if (value !== null) {
    url.searchParams.delete("token");
    window.history.replaceState(window.history.state, "", url.pathname + url.search + url.hash);
  }
  return value ?? "";
}

function setState(next) {
  if (next === state) return;
  state = next;
  render();
}

async function send(text) {
  const message = text.trim();
  if (!message || inFlight) return;
  inFlight = new AbortController();
  setState(sending(state));
  const mode = ui.mode.value === "chat" ? "chat" : "single";
  const body = { mode, message, locale: ui.locale.value };
  if (mode === "chat" && state.sessionId) body.session_id = state.sessionId;
  ui.question.value = "";
  ui.asked.textContent = message;
  ui.asked.hidden = false;
  try {
    const response = await fetch(new URL("/v1/turns", window.location.origin), {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        Authorization: `Bearer ${token}`,
        Accept: "text/event-stream",
      },
      body: JSON.stringify(body),
      signal: inFlight.signal,
    });
    if (!response.ok) {
      setState(requestFailed(state, { status: response.status, ...(await describeFailure(response)) }));
      return;
    }
    for await (const event of readEvents(response)) {
      const frame = toFrame(event);
      const why = frame ? refusal(state, frame) : "data-not-json";
      if (why !== null) {
        console.warn(`beacon panel: ignored a "${event.event}" frame (${why})`);
        continue;
      }
      setState(reduce(state, frame));
    }
    setState(streamEnded(state));
  } catch (err) {
    if (state.turnId) setState(streamEnded(state));
    else setState(requestFailed(state, { status: null, code: "network", message: describeError(err) }));
  } finally {
    inFlight = null;
    render();
  }
}

// FastAPI validation: {"detail": [{loc, msg}]}; ours: {"error": {code, message}}.
async function describeFailure(response) {
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

function describeError(err) {
  return err && err.name === "AbortError"
    ? "The request was cancelled."
    : "The chat server could not be reached.";
}

// ---- drawing ---------------------------------------------------------------

function render() {
  ui.status.textContent = STATUS_TEXT[state.phase] ?? "";
  ui.status.dataset.phase = state.phase;
  const busy = BUSY.has(state.phase) || inFlight !== null;
  ui.send.disabled = busy;
  ui.form.setAttribute("aria-busy", String(busy));

  if (ui.prose.textContent !== state.prose) ui.prose.textContent = state.prose;

  const line = countLine(state.counts, state.citations);
  ui.countLine.textContent = line.text;
  ui.countLine.hidden = line.hidden;
  if (line.grade) ui.countLine.dataset.grade = line.grade;
  else delete ui.countLine.dataset.grade;

  if (drawn.citations !== state.citations) {
    drawn.citations = state.citations;
    ui.citations.replaceChildren(...state.citations.map(card));
  }
  if (drawn.notices !== state.notices) {
    drawn.notices = state.notices;
    ui.notices.replaceChildren(...state.notices.map(noticeCard));
  }
}

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}

// Upstream strings become attributes only through URL parsing, and never as
// a script-bearing scheme.
const UNSAFE_SCHEMES = new Set(["javascript:", "vbscript:", "data:", "blob:", "file:"]);

function safeUrl(raw, { image = false } = {}) {
  if (typeof raw !== "string" || raw.trim() === "") return null;
  try {
    const url = new URL(raw, document.baseURI);
    if (image && url.protocol === "data:" && /^data:image\/(png|jpeg|gif|webp);/i.test(raw)) {
      return url.href;
    }
    return UNSAFE_SCHEMES.has(url.protocol) ? null : url.href;
  } catch {
    return null;
  }
}

function card(citation) {
  const node = el("article", "card");
  node.dataset.testid = "citation-card";
  if (citation.id) node.dataset.citationId = String(citation.id);
  const title = String(citation.title ?? "");

  // No placeholder for a missing or broken thumbnail: an empty box says nothing.
  const thumb = safeUrl(citation.thumbnail, { image: true });
  if (thumb) {
    const img = el("img", "thumb");
    img.alt = title;
    img.loading = "lazy";
    img.decoding = "async";
    img.src = thumb;
    img.addEventListener("error", () => img.remove(), { once: true });
    node.append(img);
  }

  const body = el("div", "card-body");
  const href = safeUrl(citation.deep_link);
  const link = el(href ? "a" : "span", "card-title", title);
  if (href) {
    link.href = href;
    link.rel = "noopener noreferrer";
  }
  body.append(link);

  const meta = el("p", "card-meta");
  if (citation.kind) meta.append(el("span", "badge", citation.kind));
  if (citation.level) meta.append(el("span", "card-level", citation.level));
  if (citation.date) meta.append(el("time", "card-date", citation.date));
  body.append(meta);
  node.append(body);
  return node;
}

function noticeCard(notice) {
  const node = el("div", `notice notice-${notice.kind}`);
  node.dataset.testid = "notice";
  node.dataset.kind = notice.kind;
  node.setAttribute("role", notice.kind === "error" ? "alert" : "status");
  if (notice.code) {
    node.dataset.code = notice.code;
    node.append(el("code", "notice-code", notice.code));
  }
  node.append(el("span", "notice-text", notice.text));
  if (notice.options.length > 0) {
    const options = el("div", "options");
    for (const option of notice.options) {
      const button = el("button", option.recommended ? "option recommended" : "option");
      button.type = "button";
      button.dataset.testid = "option";
      button.textContent = String(option.label ?? option.reply ?? "");
      if (option.recommended) button.title = "Recommended";
      button.addEventListener("click", () => send(String(option.reply ?? "")));
      options.append(button);
    }
    node.append(options);
  }
  return node;
}

// ---- input -----------------------------------------------------------------

ui.form.addEventListener("submit", (event) => {
  event.preventDefault();
  send(ui.question.value);
});
ui.question.addEventListener("keydown", (event) => {
  // Enter sends, Shift+Enter breaks the line; an IME still composing (ko, ja)
  // owns its Enter.
  if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
    event.preventDefault();
    send(ui.question.value);
  }
});
ui.mode.addEventListener("change", () => {
  if (ui.mode.value !== "chat") setState({ ...state, sessionId: null });
});

render();
ui.question.focus();
