// The admin-console host: it knows names (team, project, review) and routes;
// it has no viewer, so it declares `viewContext: "names"` and lets citation
// links navigate to the site viewer instead of handling them itself: its URL
// for a citation target is the viewer's.

import { mountPanel } from "/panel/panel.js";
import { signIn } from "/hosts/shared/token.js";
import { viewerHref } from "/hosts/viewer/link.js";

const TEAM = "Northline Builders — Safety office";
const PROJECTS = ["Harbor Tower", "Maple Clinic", "Cedar School", "Riverside Depot"];
const REVIEWS = ["Weekly safety review", "Monthly quality review"];

const session = signIn(window);
let selection = { project: PROJECTS[0], review: REVIEWS[0] };
const listeners = new Set();

const snapshot = () => ({
  team_name: TEAM,
  project_name: selection.project,
  review_name: selection.review,
});

const adapter = {
  capabilities: Object.freeze({ viewContext: "names", citations: "link", viewerEvents: true }),
  getFacilityKey: () => "northline-console",
  getAuthToken: async () => session.token,
  getLicenseTierSet: () => session.tiers,
  getCurrentSurfaceId: () => "console",
  getViewerSnapshot: snapshot,
  dispatchCitation: () => false,
  subscribeViewerState(listener) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  // Routing only: a citation opens the site viewer at its target.
  citationHref: viewerHref,
  getIsAdmin: () => true,
};

function list(id, values, key) {
  document.getElementById(id).replaceChildren(
    ...values.map((value) => {
      const item = document.createElement("li");
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = value;
      button.setAttribute("aria-pressed", String(selection[key] === value));
      button.addEventListener("click", () => {
        selection = { ...selection, [key]: value };
        draw();
        for (const listener of listeners) listener(snapshot());
      });
      item.append(button);
      return item;
    }),
  );
}

function draw() {
  document.querySelector('[data-testid="console-team"]').textContent = TEAM;
  list("projects", PROJECTS, "project");
  list("reviews", REVIEWS, "review");
}

draw();
mountPanel(document.getElementById("beacon-panel"), adapter);
