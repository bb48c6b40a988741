// A citation as a card: thumbnail (or a photo's placeholder), headline, and the
// meta line. The link is the host's: the server names where the record lives
// (`target`), the adapter says what URL that is and may take the click itself.

import { element as el, safeUrl } from "./dom.js";

/** The headline a card shows: its title without a level the meta line repeats; never a bare id. */
export function headline(citation, copy) {
  let title = String(citation.title ?? "").trim();
  const level = String(citation.level ?? "").trim();
  if (level && title.toLowerCase().startsWith(`${level.toLowerCase()}:`)) {
    title = title.slice(level.length + 1).trim();
  }
  if (title === "" || title === String(citation.id ?? "")) {
    const kind = citation.kind === "photo" ? copy.photo : String(citation.kind ?? "");
    return [kind, level, citation.date].filter((p) => p).join(" · ");
  }
  return title;
}

export function card(citation, copy, adapter) {
  const node = el("article", "card");
  node.dataset.testid = "citation-card";
  if (citation.id) node.dataset.citationId = String(citation.id);
  if (citation.kind) node.dataset.kind = String(citation.kind);
  const title = headline(citation, copy);

  const thumb = safeUrl(citation.thumbnail, { image: true });
  const placeholder = () => {
    // A photo without a picture still looks like a photo card: a neutral box
    // with the kind's word, never an empty frame or an id.
    const box = el("div", "thumb thumb-placeholder", copy.photo);
    box.setAttribute("aria-hidden", "true");
    return box;
  };
  if (thumb) {
    const img = el("img", "thumb");
    img.alt = title;
    img.loading = "lazy";
    img.decoding = "async";
    img.src = thumb;
    img.addEventListener(
      "error",
      () => (citation.kind === "photo" ? img.replaceWith(placeholder()) : img.remove()),
      { once: true },
    );
    node.append(img);
  } else if (citation.kind === "photo") {
    node.append(placeholder());
  }

  const body = el("div", "card-body");
  const target = citation.target && typeof citation.target === "object" ? { ...citation.target } : null;
  const href = target ? safeUrl(adapter.citationHref(target)) : null;
  const link = el(href ? "a" : "span", "card-title", title);
  if (href) {
    link.href = href;
    link.rel = "noopener noreferrer";
    link.addEventListener("click", (event) => {
      if (adapter.dispatchCitation({ ...citation })) event.preventDefault();
    });
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
