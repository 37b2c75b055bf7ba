import { runsGates } from "./gate-nodes.js";
import { END_NODE, type Workflow, type WorkflowNode } from "./schema.js";

/** The tools that only read: an agent with nothing else cannot change the files the baseline is taken of. */
export const READ_ONLY_TOOLS: ReadonlySet<string> = new Set(["read_file", "list_files", "search_files"]);

/** What the gate baseline does when the run reaches a node. */
export interface BaselineStep {
  /** start: begin it in the background (if not begun); later: not yet (a switch still picks a path); never: stop it. */
  at: "start" | "later" | "never";
  /** The node can change files or runs gates: it waits for the baseline before it starts. */
  awaits: boolean;
}

/**
 * Whether a node can change the project before the baseline is taken: it runs gates, or it is an agent with a
 * tool that is not read-only (write_file, edit_file, run_command, any MCP tool). Switches and human steps cannot.
 */
export function canChangeFiles(spec: WorkflowNode | undefined, agentTools: (agentId: string) => readonly string[] | undefined): boolean {
  if (!spec) return false;
  if (runsGates(spec)) return true;
  if (spec.kind !== "agent") return false;
  const tools = agentTools(spec.agent ?? "");
  // An agent that is not loaded is treated as one that writes: waiting costs time, a baseline of changed files costs the verdict.
  return tools === undefined || tools.some((t) => !READ_ONLY_TOOLS.has(t));
}

/** The nodes a node's router can send the run to: its edges, and the agent a human step reviews. */
function nextNodes(workflow: Workflow, id: string): string[] {
  const spec = workflow.nodes[id];
  const next = workflow.edges.filter((e) => e.from === id).map((e) => e.to);
  if (spec?.kind === "human" && spec.reviews) next.push(spec.reviews);
  return next;
}

/** Whether a node that runs gates can be reached from `from` (itself included). */
export function reachesGate(workflow: Workflow, from: string): boolean {
  const seen = new Set<string>();
  const queue = [from];
  while (queue.length) {
    const id = queue.shift()!;
    if (seen.has(id) || id === END_NODE) continue;
    seen.add(id);
    if (runsGates(workflow.nodes[id])) return true;
    queue.push(...nextNodes(workflow, id));
  }
  return false;
}

/**
 * What the baseline does at `node`: it starts as soon as the run is on a path that reaches a gate, so it runs while
 * the agents that cannot write think; a switch with a gate-less case waits for its decision (the docs path then never
 * runs the suite); a node from which no gate can be reached stops it; a node that can change files waits for it.
 */
export function baselineStep(workflow: Workflow, node: string, agentTools: (agentId: string) => readonly string[] | undefined): BaselineStep {
  if (!reachesGate(workflow, node)) return { at: "never", awaits: false };
  const spec = workflow.nodes[node];
  const awaits = canChangeFiles(spec ? (spec.kind === "agent" ? { ...spec, agent: spec.agent ?? node } : spec) : undefined, agentTools);
  if (spec?.kind === "switch" && !awaits) {
    const gateless = nextNodes(workflow, node).some((to) => !reachesGate(workflow, to));
    if (gateless) return { at: "later", awaits };
  }
  return { at: "start", awaits };
}
