// The live question quota: `GET /v1/quota/events` read from a fetch body (an
// EventSource cannot send the bearer), one `quota` event at once and one per
// question spent. `{"remaining": null}` is no quota: nothing will ever change,
// so the stream is let go (a page of an unlimited user holds no connection open).
// A quota's stream is followed again after a cut (a restart, a proxy's timeout),
// never after a 401/403/404.

import { readEvents } from "./sse.js";

const RETRY_MS = [1_000, 2_000, 5_000, 10_000, 30_000];

/**
 * Follow the caller's quota until `signal` aborts; `onValue` gets each event's
 * data ({remaining, limit, reset_at} or {remaining: null}).
 */
export async function followQuota(origin, token, onValue, { signal } = {}) {
  let failures = 0;
  while (!signal?.aborted) {
    const own = new AbortController();
    const stop = () => own.abort();
    signal?.addEventListener("abort", stop);
    try {
      const response = await fetch(new URL("/v1/quota/events", origin), {
        headers: { Accept: "text/event-stream", Authorization: `Bearer ${token}` },
        cache: "no-store",
        signal: own.signal,
      });
      if ([401, 403, 404].includes(response.status)) return; // nothing to follow here
      if (response.ok) {
        for await (const event of readEvents(response)) {
          if (event.event !== "quota") continue;
          const value = quotaValue(event.data);
          if (value !== null) {
            failures = 0;
            onValue(value);
            if (value.remaining === null) {
              own.abort(); // unlimited: let the stream go
              return;
            }
          }
        }
      }
    } catch {
      if (signal?.aborted || own.signal.aborted) return;
    } finally {
      signal?.removeEventListener("abort", stop);
    }
    const wait = RETRY_MS[Math.min(failures, RETRY_MS.length - 1)];
    failures += 1;
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
}

/** An event's data as a quota value, or null when it is not one. */
export function quotaValue(data) {
  let value;
  try {
    value = JSON.parse(data);
  } catch {
    return null;
  }
  if (!value || typeof value !== "object") return null;
  if (value.remaining === null) return { remaining: null };
  if (!Number.isInteger(value.remaining) || value.remaining < 0) return null;
  const limit = Number.isInteger(value.limit) ? value.limit : null;
  const resetAt = typeof value.reset_at === "string" ? value.reset_at : null;
  return { remaining: value.remaining, limit, resetAt };
}
