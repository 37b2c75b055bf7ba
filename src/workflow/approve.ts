import type { Workflow } from "./schema.js";

/**
 * Applies `approve: [agent nodes]` from config: each listed node's output goes through a human review node
 * `approve_<node>` before the run moves on. Pure: returns a new workflow.
 */
export function withApprovals(workflow: Workflow, approve: string[]): Workflow {
  if (!approve.length) return workflow;
  const nodes = { ...workflow.nodes };
  let edges = [...workflow.edges];
  for (const target of approve) {
    const reviewer = `approve_${target}`;
    if (nodes[reviewer] || !nodes[target]) continue; // validation reports unknown targets
    nodes[reviewer] = { kind: "human", prompt: `Review ${target}'s output: approve it, edit it, or reject it with a reason.`, reviews: target };
    edges = edges.map((e) => (e.from === target ? { ...e, from: reviewer } : e));
    edges.push({ from: target, to: reviewer });
  }
  return { nodes, edges };
}
