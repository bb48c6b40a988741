// The answer's shown-set spans (`done.shown_spans`, SPEC §4's done frame): where the
// server rendered each `{{shown:slot}}` number and the sentence holding it, as
// code-point offsets into the answer. The panel re-renders and highlights exactly
// those spans; it never searches the prose for a number (a "Level 10" or a title's
// "10" would look the same). Pure: no DOM.

/** @typedef {{slot: string, start: number, end: number, sentence_start: number, sentence_end: number}} ShownSpan */

/** The spans a `done` frame carries that fit `prose`, in text order; anything else dropped. */
export function shownSpans(raw, prose) {
  const length = Array.from(String(prose)).length;
  const whole = (n) => Number.isInteger(n) && n >= 0 && n <= length;
  return (Array.isArray(raw) ? raw : [])
    .filter(
      (s) =>
        s &&
        typeof s.slot === "string" &&
        [s.start, s.end, s.sentence_start, s.sentence_end].every(whole) &&
        s.sentence_start <= s.start &&
        s.start < s.end &&
        s.end <= s.sentence_end,
    )
    .map(({ slot, start, end, sentence_start, sentence_end }) => ({ slot, start, end, sentence_start, sentence_end }))
    .sort((a, b) => a.start - b.start);
}

/**
 * The prose with every span of `slot` re-rendered as `text` (after a load-more the
 * cards on screen are more than the answer said), and the spans moved to match.
 * Offsets are code points, so a Korean or Japanese answer moves as it should.
 */
export function rerendered(prose, spans, slot, text) {
  const chars = Array.from(String(prose));
  const replacement = Array.from(String(text));
  const replaced = spans.filter((s) => s.slot === slot);
  // Where an old offset lands: moved by what every replaced number ending at or
  // before it grew (a sentence's end moves with its own number; its start does not).
  const grown = (s) => replacement.length - (s.end - s.start);
  const map = (pos) => pos + replaced.filter((s) => s.end <= pos).reduce((n, s) => n + grown(s), 0);
  const out = [];
  let at = 0;
  for (const span of replaced) {
    out.push(...chars.slice(at, span.start), ...replacement);
    at = span.end;
  }
  out.push(...chars.slice(at));
  const moved = spans.map((s) => ({
    slot: s.slot,
    start: map(s.start),
    end: map(s.end),
    sentence_start: map(s.sentence_start),
    sentence_end: map(s.sentence_end),
  }));
  return { prose: out.join(""), spans: moved };
}

/**
 * The prose cut into what the panel draws: plain text, and each shown-set sentence
 * with its numbers marked. `[{text}]`, `{sentence: [{text}|{text, slot}]}`.
 */
export function proseParts(prose, spans) {
  const chars = Array.from(String(prose));
  const parts = [];
  let at = 0;
  let i = 0;
  while (i < spans.length) {
    const first = spans[i];
    const inSentence = [];
    while (i < spans.length && spans[i].sentence_start === first.sentence_start) inSentence.push(spans[i++]);
    if (first.sentence_start < at) continue; // overlapping sentences: draw the first only
    if (first.sentence_start > at) parts.push({ text: chars.slice(at, first.sentence_start).join("") });
    const sentence = [];
    let inner = first.sentence_start;
    for (const span of inSentence) {
      if (span.start > inner) sentence.push({ text: chars.slice(inner, span.start).join("") });
      sentence.push({ text: chars.slice(span.start, span.end).join(""), slot: span.slot });
      inner = span.end;
    }
    const end = Math.max(inner, first.sentence_end);
    if (end > inner) sentence.push({ text: chars.slice(inner, end).join("") });
    parts.push({ sentence, slot: first.slot });
    at = end;
  }
  if (at < chars.length) parts.push({ text: chars.slice(at).join("") });
  return parts;
}
