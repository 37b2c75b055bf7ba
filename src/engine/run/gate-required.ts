import type { GateConfig, ResolvedConfig } from "../../config/schema.js";
import { ConfigError } from "../../errors.js";
import { noGateReason } from "../../gates/no-gate.js";
import { judgesItsGates } from "../../workflow/gate-nodes.js";
import type { Workflow } from "../../workflow/schema.js";

// Light (no LangGraph): a run refuses to start without a required gate before it says it started.

/** The gates a workflow runs: every gate when a node says `gates: true` (or a gate node names none), else the ones named. */
export function workflowGates(workflow: Workflow, gates: GateConfig[]): GateConfig[] {
  const specs = Object.values(workflow.nodes).flatMap((n): Array<true | string[]> => {
    if (n.kind === "gate") return [n.gates ?? true];
    return n.kind === "agent" && judgesItsGates(n) ? [n.gates] : [];
  });
  if (specs.some((s) => s === true)) return gates;
  const names = new Set(specs.flatMap((s) => (Array.isArray(s) ? s : [])));
  return gates.filter((g) => names.has(g.name));
}

/** Why this thread has no gate, or null when it has one. */
export function missingGate(deps: { config: ResolvedConfig; gates: GateConfig[] }): string | null {
  if (workflowGates(deps.config.workflow, deps.gates).length) return null;
  if (deps.gates.length) return "the workflow has no node that runs a gate";
  return noGateReason(deps.config.root, deps.config.gates);
}

/** The refusal of a run without a gate when one is required (nothing ran). */
export function gateRequiredError(missing: string): ConfigError {
  return new ConfigError(`No gate: ${missing}. requireGate refuses a run without one; nothing ran. Add a test script or \`gates\` in yolo.config.ts.`, [], {
    fact: { kind: "gate-required", missing },
  });
}
