// SSE over fetch. `POST /v1/turns` carries a JSON body and a bearer, which
// EventSource cannot send, so the stream is read from a fetch body and parsed
// here, following the WHATWG event-stream rules the server writes to.

/** Incremental parser: feed text chunks, get back complete events. */
export class SseParser {
  constructor() {
    this.buffer = "";
    this.reset();
  }

  reset() {
    this.event = "";
    this.id = null;
    this.data = [];
  }

  /** @param {string} chunk  @returns {{event: string, id: string|null, data: string}[]} */
  push(chunk) {
    this.buffer += chunk;
    const out = [];
    for (;;) {
      const cut = lineEnd(this.buffer);
      if (cut === null) break;
      const line = this.buffer.slice(0, cut.at);
      this.buffer = this.buffer.slice(cut.at + cut.width);
      const event = this.line(line);
      if (event) out.push(event);
    }
    return out;
  }

  /**
   * The stream closed. A held-back lone "\r" was a line end after all; an
   * event still missing its blank line is incomplete and dropped.
   */
  end() {
    const out = [];
    if (this.buffer.endsWith("\r")) {
      const event = this.line(this.buffer.slice(0, -1));
      if (event) out.push(event);
    }
    this.buffer = "";
    this.reset();
    return out;
  }

  line(line) {
    if (line === "") {
      if (this.data.length === 0) {
        this.reset();
        return null;
      }
      const event = { event: this.event || "message", id: this.id, data: this.data.join("\n") };
      this.reset();
      return event;
    }
    if (line.startsWith(":")) return null; // comment / keep-alive
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "event") this.event = value;
    else if (field === "data") this.data.push(value);
    else if (field === "id" && !value.includes("\0")) this.id = value;
    // `retry` and unknown fields are ignored: the panel does not reconnect by itself.
    return null;
  }
}

// A line ends at \r\n, \n or \r. A trailing lone \r may be the first half of
// a \r\n split across chunks, so it is not a line end until more text arrives.
function lineEnd(text) {
  for (let i = 0; i < text.length; i += 1) {
    const ch = text[i];
    if (ch === "\n") return { at: i, width: 1 };
    if (ch === "\r") {
      if (i + 1 === text.length) return null;
      return { at: i, width: text[i + 1] === "\n" ? 2 : 1 };
    }
  }
  return null;
}

/**
 * Read a fetch Response body as SSE events.
 * @param {Response} response
 * @returns {AsyncGenerator<{event: string, id: string|null, data: string}>}
 */
export async function* readEvents(response) {
  const reader = response.body.getReader();
  const decoder = new TextDecoder("utf-8");
  const parser = new SseParser();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      yield* parser.push(decoder.decode(value, { stream: true }));
    }
    yield* parser.push(decoder.decode());
    yield* parser.end();
  } finally {
    reader.releaseLock();
  }
}

/** Parse an event's JSON data into a frame, or null when it is not JSON. */
export function toFrame(event) {
  try {
    return { type: event.event, id: event.id, data: JSON.parse(event.data) };
  } catch {
    return null;
  }
}
