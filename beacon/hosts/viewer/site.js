// The demo site: Harbor Tower's levels and two panoramas per level, as the
// stub's corpus has them (ids, labels, capture times). A small, fixed list:
// the viewer is a host for the panel, not a second client of the upstream.

export const PROJECT = Object.freeze({ id: "prj-harbor-tower", name: "Harbor Tower" });

const CAPTURES = [
  [1, "cap-000001", "L1 east wing walk #0001", "2025-11-17T12:44:00Z"],
  [1, "cap-000051", "L1 atrium walk #0051", "2025-11-17T15:09:00Z"],
  [2, "cap-000002", "L2 north core walk #0002", "2025-10-08T15:08:00Z"],
  [2, "cap-000024", "L2 atrium walk #0024", "2026-04-03T08:48:00Z"],
  [3, "cap-000003", "L3 north core walk #0003", "2026-03-07T15:56:00Z"],
  [3, "cap-000035", "L3 south core walk #0035", "2026-03-23T12:40:00Z"],
  [4, "cap-000004", "L4 north core walk #0004", "2026-05-18T09:39:00Z"],
  [4, "cap-000040", "L4 south core walk #0040", "2025-10-13T09:00:00Z"],
  [5, "cap-000005", "L5 north core walk #0005", "2025-10-15T13:24:00Z"],
  [5, "cap-000043", "L5 north core walk #0043", "2025-11-14T13:09:00Z"],
  [6, "cap-000006", "L6 west wing walk #0006", "2025-10-06T10:06:00Z"],
  [6, "cap-000023", "L6 west wing walk #0023", "2026-01-26T07:14:00Z"],
  [7, "cap-000007", "L7 north core walk #0007", "2026-06-10T13:14:00Z"],
  [7, "cap-000019", "L7 east wing walk #0019", "2026-04-27T15:59:00Z"],
  [8, "cap-000008", "L8 north core walk #0008", "2026-06-17T08:06:00Z"],
  [8, "cap-000020", "L8 east wing walk #0020", "2026-02-01T10:14:00Z"],
  [9, "cap-000009", "L9 south core walk #0009", "2026-06-26T07:03:00Z"],
  [9, "cap-000015", "L9 south core walk #0015", "2025-10-23T15:55:00Z"],
  [10, "cap-000010", "L10 atrium walk #0010", "2026-06-27T12:46:00Z"],
  [10, "cap-000016", "L10 south core walk #0016", "2026-03-10T07:39:00Z"],
  [11, "cap-000011", "L11 north core walk #0011", "2025-12-23T06:47:00Z"],
  [11, "cap-000031", "L11 atrium walk #0031", "2026-04-17T10:51:00Z"],
  [12, "cap-000012", "L12 atrium walk #0012", "2025-11-08T10:56:00Z"],
  [12, "cap-000030", "L12 north core walk #0030", "2025-10-02T11:17:00Z"],
  [13, "cap-000013", "L13 west wing walk #0013", "2025-11-13T15:13:00Z"],
  [13, "cap-000021", "L13 south core walk #0021", "2026-01-03T07:23:00Z"],
  [14, "cap-000014", "L14 north core walk #0014", "2026-06-20T11:15:00Z"],
  [14, "cap-000036", "L14 west wing walk #0036", "2025-10-12T08:50:00Z"],
];

export const LEVELS = Object.freeze(
  Array.from({ length: 14 }, (_, i) => Object.freeze({ number: i + 1, name: `Level ${i + 1}` })),
);

export const PANORAMAS = Object.freeze(
  CAPTURES.map(([level, id, label, time]) => Object.freeze({ level, id, label, time })),
);

const CATEGORIES = ["ppe", "fall protection", "housekeeping", "alignment", "fire stopping"];
const STATUSES = ["open", "open", "in review", "closed"];

/**
 * The markup pins on a panorama. The level-3 north-core walk carries a site
 * walk's worth (64): more than the wire's cap of 50, so the host must trim.
 */
export function annotationsOf(panoramaId) {
  const count = panoramaId === "cap-000003" ? 64 : 3 + (Number(panoramaId.slice(-2)) % 5);
  return Array.from({ length: count }, (_, i) => ({
    id: `${panoramaId}-pin-${String(i + 1).padStart(2, "0")}`,
    title: `Pin ${i + 1}: ${CATEGORIES[i % CATEGORIES.length]} check`,
    status: STATUSES[i % STATUSES.length],
    category: CATEGORIES[i % CATEGORIES.length],
  }));
}
