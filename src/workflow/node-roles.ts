import { roleOf, type RoleSource } from "../roles/registry.js";
import type { RoleRecord } from "../roles/types.js";
import { judgesItsGates } from "./gate-nodes.js";
import type { AgentNodeSpec, Workflow } from "./schema.js";

// Where a workflow node meets its role: the one lookup of the role record its agent plays (whether it judges gates
// is read in gate-nodes.ts). The graph resolves every node's role here once, as it is built, and hands each node its record.

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
