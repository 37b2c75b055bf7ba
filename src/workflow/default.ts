import type { Workflow, WorkflowEdge } from "./schema.js";
import { BUILT_IN_ROLES, DEFAULT_CODER, ROLES } from "../roles/catalog.js";

/** The condition on the judge's way back to the code: the gate blocked and fix attempts remain. */
const FIX_LOOP = "gate_blocked && fix_attempts_remain";

/**
 * The default pipeline, in the same format a yolo.config.ts `workflow` uses (and `yolo init` writes): one agent node
 * per pipeline role of the catalog, in its order; a role that judges gates runs them first (`gates: true`), and a red
 * gate or a FAIL verdict sets gate_blocked. The edges are the pipeline's own path between those roles (pipelineEdges).
 */
export const DEFAULT_WORKFLOW: Workflow = {
  nodes: Object.fromEntries(ROLES.map((id) => [id, BUILT_IN_ROLES[id].judgesGates ? { kind: "agent", gates: true } : { kind: "agent" }])),
  edges: pipelineEdges(),
};

/**
 * The catalog's pipeline as edges, each role to the next: a step that runs only under a condition (`runsWhen`) is
 * reached by a conditional edge and passed by the unconditional one after it; the last role, when it judges the
 * gates, goes back to the role that writes code while fix attempts remain, then to the end.
 */
function pipelineEdges(): WorkflowEdge[] {
  const edges: WorkflowEdge[] = [{ from: "start", to: ROLES[0] }];
  for (const [i, from] of ROLES.entries()) {
    let next = i + 1;
    for (let when = nextCondition(next); when !== null; when = nextCondition(++next)) edges.push({ from, to: ROLES[next], when });
    if (next < ROLES.length) edges.push({ from, to: ROLES[next] });
  }
  const last = ROLES[ROLES.length - 1];
  if (BUILT_IN_ROLES[last].judgesGates) edges.push({ from: last, to: DEFAULT_CODER, when: FIX_LOOP });
  edges.push({ from: last, to: "end" });
  return edges;
}

// The condition of the pipeline step at `index` (null past the end or when it always runs).
function nextCondition(index: number): string | null {
  return index < ROLES.length ? (BUILT_IN_ROLES[ROLES[index]].runsWhen ?? null) : null;
}
