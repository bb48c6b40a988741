// Standalone entry: the panel is the whole page and its host adapter is the
// default one (bearer from ?token=, no viewer, plain links).

import { standaloneAdapter } from "./host.js";
import { mountPanel } from "./panel.js";

const panel = mountPanel(document.getElementById("beacon-panel"), standaloneAdapter(window));
document.querySelector('[data-testid="question"]').focus();
export default panel;
