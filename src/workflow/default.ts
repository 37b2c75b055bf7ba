import type { Workflow } from "./schema.js";

/**
 * The default pipeline, in the same format a yolo.config.ts `workflow` uses (and `yolo init` writes).
 * tea's node runs the gates first and judges them; a red gate or a FAIL verdict sets gate_blocked.
 */
export const DEFAULT_WORKFLOW: Workflow = {
  nodes: {
    analyst: { kind: "agent" },
    pm: { kind: "agent" },
    architect: { kind: "agent" },
    dev: { kind: "agent" },
    tea: { kind: "agent", gates: true },
  },
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
