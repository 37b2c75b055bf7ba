import type { ResolvedConfig } from "../../config/schema.js";
import { type AgentCapability, declares } from "../../roles/catalog.js";
import { nodeRole } from "../../workflow/node-roles.js";

/** The agent node that builds pm's stories in parallel, and the agent each story's run uses. */
export interface FanOut {
  node: string;
  agentId: string;
}

/**
 * Which agent node fans out pm's stories, or null. Its agent's file may declare it (`capabilities:
 * [fans-out-stories]`) in any workflow; a built-in role whose catalog entry fans out does so in the default pipeline
 * and an agent thread only (a custom workflow's built-in dev keeps one run, as it always has). The first such node.
 * Without the agents (the checkpoint reader's light path) only the built-in roles are known.
 */
export function fanOutOf(
  config: Pick<ResolvedConfig, "workflow" | "customWorkflow">,
  agents?: ReadonlyMap<string, { capabilities?: readonly AgentCapability[] }>,
): FanOut | null {
  for (const [node, spec] of Object.entries(config.workflow.nodes)) {
    if (spec.kind !== "agent") continue;
    const agentId = spec.agent ?? node;
    if (declares(agents?.get(agentId), "fans-out-stories")) return { node, agentId };
    // The node's built-in role (without the agents: a declared capability was asked just above).
    if (!config.customWorkflow && nodeRole(node, spec).fansOutStories === true) return { node, agentId };
  }
  return null;
}
