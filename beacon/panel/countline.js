// The count line is drawn from the `references` frame's numbers only, never
// from the prose: the grade was decided by code before the model spoke, and
// the line says no more than that grade permits (SPEC §3, §4).

const NUMBER_LOCALE = "en-US";

function formatCount(n) {
  return n.toLocaleString(NUMBER_LOCALE);
}

function isCount(n) {
  return typeof n === "number" && Number.isInteger(n) && n >= 0;
}

/**
 * @param {{grade: string, total: number|null}[]} counts  the frame's `counts[]`
 * @param {unknown[]} citations  the frame's `citations[]` (the cards on screen)
 * @returns {{text: string, hidden: boolean, grade: string|null}}
 */
export function countLine(counts, citations) {
  const primary = Array.isArray(counts) && counts.length > 0 ? counts[0] : null;
  const shown = Array.isArray(citations) ? citations.length : 0;
  const silent = { text: "", hidden: true, grade: primary ? primary.grade : null };
  if (!primary) return silent;
  const total = primary.total;

  switch (primary.grade) {
    case "EXACT": {
      // An EXACT grade without a number has nothing it may assert.
      if (!isCount(total)) return silent;
      let text = `exactly ${formatCount(total)}`;
      if (shown > 0 && shown < total) text += ` — showing ${formatCount(shown)}`;
      return { text, hidden: false, grade: "EXACT" };
    }
    case "LOWER_BOUND": {
      if (!isCount(total)) return silent;
      const text =
        shown === 0
          ? `at least ${formatCount(total)}`
          : `showing ${formatCount(shown)} of at least ${formatCount(total)}`;
      return { text, hidden: false, grade: "LOWER_BOUND" };
    }
    case "SHOWN":
      // "these 0" would describe nothing on screen; say nothing instead.
      if (shown === 0) return silent;
      return { text: `these ${formatCount(shown)}`, hidden: false, grade: "SHOWN" };
    default:
      // UNKNOWN (or a grade this panel does not know): no count may be uttered.
      return silent;
  }
}
