import { roleOf, type RoleSource } from "../roles/registry.js";
import type { RoleRecord } from "../roles/types.js";
import type { AgentNodeSpec, Workflow, WorkflowNode } from "./schema.js";

// Where a workflow node meets its role: the one reading of an agent node's `gates`, and the one lookup of the role
// record its agent plays. The graph resolves every node's role here once, as it is built, and hands each node its record.

/** Whether an agent node runs gates before its agent, which then judges them (the tea pattern): `gates` given and not false. */
export function judgesItsGates(spec: WorkflowNode | undefined): boolean {
  return spec?.kind === "agent" && spec.gates !== undefined && spec.gates !== false;
}

/** Whether a node runs gates: a gate node, or an agent node with `gates` (its agent judges them). */
export function runsGates(spec: WorkflowNode | undefined): boolean {
  return spec?.kind === "gate" || judgesItsGates(spec);
}

/**
 * The role record an agent node plays: judging when the node runs gates, else its agent's (built-in, declared by its
 * file's `handoff:` and `capabilities:`, or custom). Without the agents (a reader of stored threads) only the
 * built-in roles are known, which gives every node its built-in history line and display.
 */
export function nodeRole(node: string, spec: AgentNodeSpec, agents?: ReadonlyMap<string, RoleSource>): RoleRecord {
  const agentId = spec.agent ?? node;
  return roleOf(agentId, judgesItsGates(spec), agents?.get(agentId));
}

/** Every agent node's role record, by node id, in the workflow's order. */
export function nodeRoles(workflow: Workflow, agents?: ReadonlyMap<string, RoleSource>): ReadonlyMap<string, RoleRecord> {
  const roles = new Map<string, RoleRecord>();
  for (const [id, spec] of Object.entries(workflow.nodes)) if (spec.kind === "agent") roles.set(id, nodeRole(id, spec, agents));
  return roles;
}

/**
 * The role one story's run of the fanning-out agent plays: the agent's own, never the judging one (a story is built,
 * not judged), whatever the fanning-out node's `gates` say.
 */
export function storyRole(agentId: string, agents?: ReadonlyMap<string, RoleSource>): RoleRecord {
  return roleOf(agentId, false, agents?.get(agentId));
}
