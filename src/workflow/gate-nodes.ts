import type { AgentNodeSpec, WorkflowNode } from "./schema.js";

// The one reading of a node's `gates`, light enough for the checks that run before a run starts (no role records).

/** Whether an agent node runs gates before its agent, which then judges them (the tea pattern): `gates` given and not false. */
export function judgesItsGates(spec: WorkflowNode | undefined): spec is AgentNodeSpec & { gates: true | string[] } {
  return spec?.kind === "agent" && spec.gates !== undefined && spec.gates !== false;
}

/** Whether a node runs gates: a gate node, or an agent node with `gates` (its agent judges them). */
export function runsGates(spec: WorkflowNode | undefined): boolean {
  return spec?.kind === "gate" || judgesItsGates(spec);
}
