// DOM helpers shared by the panel: text goes in as textContent only, and an
// upstream string becomes an attribute only through URL parsing.

export function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}

// Never a script-bearing scheme, whoever wrote the link.
const UNSAFE_SCHEMES = new Set(["javascript:", "vbscript:", "data:", "blob:", "file:"]);

export function safeUrl(raw, { image = false } = {}) {
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
