// The host adapter: the only way the panel reaches the page it lives in.
// A host implements these nine methods and declares its capabilities up
// front; the panel never looks at the host's DOM, globals or URL itself. The
// server never learns which host it is: all it sees is a turn request.
//
//   getFacilityKey()          -> string        the tenant/facility the host is scoped to
//   getAuthToken()            -> Promise<string> the bearer for the chat server
//   getLicenseTierSet()       -> string[]      tiers the host believes the user has (UI hint only)
//   getCurrentSurfaceId()     -> string        which surface is embedding the panel
//   getViewerSnapshot()       -> object|null   what the user looks at now (a ViewContext)
//   dispatchCitation(c)       -> boolean       let the host act on a citation; true = handled
//   subscribeViewerState(fn)  -> () => void    fn(snapshot) on every view change; returns unsubscribe
//   citationHref(target)      -> string|null   this host's URL for a citation's target (the server
//                                              sends where a record lives, never a URL); null = no link
//   getIsAdmin()              -> boolean       show routing diagnostics (tool trail)

import { TIER_CAPABILITIES } from "./vocabulary.js";

export const ADAPTER_METHODS = Object.freeze([
  "getFacilityKey",
  "getAuthToken",
  "getLicenseTierSet",
  "getCurrentSurfaceId",
  "getViewerSnapshot",
  "dispatchCitation",
  "subscribeViewerState",
  "citationHref",
  "getIsAdmin",
]);

// The static capability declaration: what the host can do, fixed at load.
//   viewContext: "full" (every ViewContext field) | "names" (only *_name fields) | "none"
//   citations:   "dispatch" (the host moves its own view) | "link" (plain navigation)
//   viewerEvents: whether subscribeViewerState ever calls back
export const CAPABILITY_SCHEMA = Object.freeze({
  viewContext: ["full", "names", "none"],
  citations: ["dispatch", "link"],
  viewerEvents: [true, false],
});

// The wire's caps (beacon/wire/turns.py): the panel enforces them too, so a
// host that forgets to trim gets a trimmed request, never a 422.
export const VIEW_ANNOTATIONS_CAP = 50;
const NAME_FIELDS = ["project_name", "review_name", "team_name"];
const VIEW_FIELDS = [
  "project_id",
  ...NAME_FIELDS,
  "capture_label",
  "capture_time",
  "level",
  "level_number",
  "panorama_id",
  "selected_annotation_id",
  "annotations",
];

export class HostAdapterError extends Error {}

/** Throws unless `adapter` has all nine methods and a valid capability declaration. */
export function checkAdapter(adapter) {
  if (!adapter || typeof adapter !== "object") throw new HostAdapterError("no host adapter");
  const missing = ADAPTER_METHODS.filter((name) => typeof adapter[name] !== "function");
  if (missing.length > 0) throw new HostAdapterError(`host adapter lacks ${missing.join(", ")}`);
  const caps = adapter.capabilities;
  if (!caps || typeof caps !== "object") throw new HostAdapterError("host adapter declares no capabilities");
  for (const [key, allowed] of Object.entries(CAPABILITY_SCHEMA)) {
    if (!allowed.includes(caps[key])) throw new HostAdapterError(`capability ${key}=${String(caps[key])}`);
  }
  return adapter;
}

/** The snapshot as the declaration allows it, capped as the wire requires; null when empty. */
export function viewContextFor(adapter) {
  const mode = adapter.capabilities.viewContext;
  if (mode === "none") return null;
  const snapshot = adapter.getViewerSnapshot();
  if (!snapshot || typeof snapshot !== "object") return null;
  const fields = mode === "names" ? NAME_FIELDS : VIEW_FIELDS;
  const out = {};
  for (const key of fields) {
    const value = snapshot[key];
    if (value === undefined || value === null || value === "") continue;
    out[key] = key === "annotations" && Array.isArray(value) ? value.slice(0, VIEW_ANNOTATIONS_CAP) : value;
  }
  return Object.keys(out).length > 0 ? out : null;
}

/**
 * The capability hint for the request: present only when the host knows tiers.
 * Tier → capabilities is the server's map (generated vocabulary), for the UI
 * only: the server decides from verified claims and never from this.
 */
export function capabilityHint(adapter) {
  const tiers = adapter.getLicenseTierSet();
  if (!Array.isArray(tiers) || tiers.length === 0) return null;
  const caps = new Set(tiers.flatMap((t) => TIER_CAPABILITIES[t] ?? []));
  return caps.size > 0 ? [...caps].sort() : null;
}

/**
 * Standalone mode: the panel is the page. The bearer rides in ?token=; it is
 * kept for this tab only (takeToken) and taken out of the address bar so it is
 * not shown, bookmarked or shared.
 */
export function standaloneAdapter(win = window) {
  const token = takeToken(win);
  return {
    capabilities: Object.freeze({ viewContext: "none", citations: "link", viewerEvents: false }),
    getFacilityKey: () => "standalone",
    getAuthToken: async () => token,
    getLicenseTierSet: () => [],
    getCurrentSurfaceId: () => "standalone",
    getViewerSnapshot: () => null,
    dispatchCitation: () => false,
    subscribeViewerState: () => () => {},
    citationHref: standaloneHref,
    getIsAdmin: () => false,
  };
}

/**
 * The standalone panel's URL for a citation target: the demo site viewer served
 * beside it, opened at the record (`/hosts/viewer/?project=…&<kind>=<id>&level=…`).
 */
export function standaloneHref(target) {
  if (!target || typeof target.kind !== "string" || typeof target.id !== "string") return null;
  const params = new URLSearchParams();
  if (typeof target.project_id === "string") params.set("project", target.project_id);
  params.set(target.kind, target.id);
  if (Number.isInteger(target.level_number)) params.set("level", String(target.level_number));
  return `/hosts/viewer/?${params}`;
}

// The tab's bearer: sessionStorage lives as long as the tab, across reloads and
// same-origin navigations (a citation opening the demo viewer), and is never sent
// anywhere by itself; closing the tab forgets it. Memory alone lost it on reload.
export const TOKEN_KEY = "beacon.token";

/**
 * The bearer for this tab: `?token=` when the address carries one (it replaces the
 * kept one and is removed from the address), else the one kept for the tab, else "".
 */
export function takeToken(win = window) {
  const url = new URL(win.location.href);
  const value = url.searchParams.get("token");
  if (value !== null) {
    url.searchParams.delete("token");
    win.history.replaceState(win.history.state, "", url.pathname + url.search + url.hash);
    keep(win, value);
    return value;
  }
  return kept(win) ?? "";
}

// Storage can be refused (a sandboxed frame, a browser setting): the token then
// lives in memory for this page only, as before.
function keep(win, value) {
  try {
    win.sessionStorage.setItem(TOKEN_KEY, value);
  } catch {
    // not kept: a reload will ask for a new address with ?token=
  }
}

function kept(win) {
  try {
    return win.sessionStorage.getItem(TOKEN_KEY);
  } catch {
    return null;
  }
}
