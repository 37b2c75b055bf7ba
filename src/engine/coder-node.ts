import type { ResolvedConfig } from "../config/schema.js";
import type { RoleSource } from "../roles/registry.js";
import { nodeRole } from "../workflow/node-roles.js";
import { fanOutOf } from "./stories/fan-out.js";

/**
 * The node a red gate's failures go to for a fix, for the words that name it: the node that fans out stories, else
 * the first agent node whose role writes code and does not judge (the default pipeline's dev); null when none does.
 * Asked of the workflow's roles (their capabilities), never of a role's name.
 */
export function coderNode(config: Pick<ResolvedConfig, "workflow" | "customWorkflow">, agents?: ReadonlyMap<string, RoleSource>): string | null {
  const fanOut = fanOutOf(config, agents);
  if (fanOut) return fanOut.node;
  for (const [node, spec] of Object.entries(config.workflow.nodes)) {
    if (spec.kind !== "agent") continue;
    const role = nodeRole(node, spec, agents);
    if (role.writesCode === true && role.judgesGates !== true) return node;
  }
  return null;
}
