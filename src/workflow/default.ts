import type { Workflow } from "./schema.js";
import { capabilitiesOf, ROLES } from "../roles/catalog.js";

/**
 * The default pipeline, in the same format a yolo.config.ts `workflow` uses (and `yolo init` writes): one agent node
 * per pipeline role of the catalog, in its order; a role that judges gates runs them first (`gates: true`), and a red
 * gate or a FAIL verdict sets gate_blocked. The edges are the pipeline's own path between those roles.
 */
export const DEFAULT_WORKFLOW: Workflow = {
  nodes: Object.fromEntries(ROLES.map((id) => [id, capabilitiesOf(id).judgesGates ? { kind: "agent", gates: true } : { kind: "agent" }])),
  edges: [
    { from: "start", to: "analyst" },
    { from: "analyst", to: "pm" },
    { from: "pm", to: "architect", when: "needs_architecture" },
    { from: "pm", to: "dev" },
    { from: "architect", to: "dev" },
    { from: "dev", to: "tea" },
    { from: "tea", to: "dev", when: "gate_blocked && fix_attempts_remain" },
    { from: "tea", to: "end" },
  ],
};
