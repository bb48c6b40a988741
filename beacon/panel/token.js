// What can be told about a bearer before any question: the panel cannot verify
// a signature, but it can see that a token is missing, is not a JWT at all, or
// carries an `exp` already past. The server still decides; this only says early
// what its 401 would say late, while the user's question is still unasked.

/** "missing" | "malformed" | "expired" | null (nothing visibly wrong). */
export function tokenProblem(token, nowSeconds = Date.now() / 1000) {
  if (typeof token !== "string" || token.trim() === "") return "missing";
  const parts = token.split(".");
  if (parts.length !== 3 || parts.some((p) => !/^[A-Za-z0-9_-]+$/.test(p))) return "malformed";
  let payload;
  try {
    payload = JSON.parse(decodeSegment(parts[1]));
  } catch {
    return "malformed";
  }
  if (!payload || typeof payload !== "object" || Array.isArray(payload)) return "malformed";
  if (typeof payload.exp === "number" && payload.exp <= nowSeconds) return "expired";
  return null;
}

function decodeSegment(segment) {
  const base64 = segment.replace(/-/g, "+").replace(/_/g, "/");
  const padded = base64 + "=".repeat((4 - (base64.length % 4)) % 4);
  const bytes = Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
  return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
}
