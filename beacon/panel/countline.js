// The count line is drawn from the `references` frame's `counts[]` only, never
// from the prose or the cards: the grade was decided by code before the model
// spoke, and the line says no more than that grade permits (SPEC §3, §4).
//   EXACT        "exactly N" (+ " — showing M" when M of N are on screen)
//   LOWER_BOUND  "at least N — showing M"
//   SHOWN        "these M"
//   UNKNOWN      nothing at all
// A total of 0 with nothing more to fetch is "no results" whatever the grade:
// "at least 0" would be true and useless.

import { copyFor } from "./copy.js";
import { shownFor } from "./reducer.js";

function isCount(n) {
  return typeof n === "number" && Number.isInteger(n) && n >= 0;
}

/**
 * @param {{source: string, grade: string, total: number|null, displayed: number, has_more: boolean}[]} counts
 * @param {ReturnType<typeof copyFor>} [copy]
 * @returns {{text: string, hidden: boolean, grade: string|null}}
 */
export function countLine(counts, copy = copyFor("en")) {
  const primary = Array.isArray(counts) && counts.length > 0 ? counts[0] : null;
  const silent = { text: "", hidden: true, grade: primary ? primary.grade : null };
  if (!primary) return silent;
  const total = primary.total;
  const shown = shownFor(counts, primary);
  const n = (value) => copy.number(value);

  if ((primary.grade === "EXACT" || primary.grade === "LOWER_BOUND") && total === 0 && !primary.has_more) {
    return { text: copy.none, hidden: false, grade: primary.grade };
  }
  switch (primary.grade) {
    case "EXACT": {
      // An EXACT grade without a number has nothing it may assert.
      if (!isCount(total)) return silent;
      let text = copy.exactly(n(total));
      if (shown > 0 && shown < total) text += copy.showing(n(shown));
      return { text, hidden: false, grade: "EXACT" };
    }
    case "LOWER_BOUND": {
      if (!isCount(total)) return silent;
      let text = copy.atLeast(n(total));
      if (shown > 0) text += copy.showing(n(shown));
      return { text, hidden: false, grade: "LOWER_BOUND" };
    }
    case "SHOWN":
      // "these 0" would describe nothing on screen; say nothing instead.
      if (shown === 0) return silent;
      return { text: copy.these(n(shown)), hidden: false, grade: "SHOWN" };
    default:
      // UNKNOWN (or a grade this panel does not know): no count may be uttered.
      return silent;
  }
}

/**
 * The status line's words for a settled phase. A `complete-sample` turn has part
 * of a set on screen; what may be said of the rest is its primary count's grade's
 * to decide, as on the count line (never "complete" and "sample" at once).
 * @param {string} phase
 * @param {{grade: string}[]} counts
 * @param {ReturnType<typeof copyFor>} [copy]
 */
export function statusLine(phase, counts, copy = copyFor("en")) {
  if (phase === "complete-sample") {
    const grade = Array.isArray(counts) && counts.length > 0 ? counts[0].grade : null;
    return copy.sample[grade] ?? copy.phase[phase];
  }
  return copy.phase[phase] ?? "";
}
