import type { HandoffFieldSpecs } from "./field-spec.js";
import { type AgentCapability, BUILT_IN_ROLES, builtInRoleFor, declares } from "./catalog.js";
import { custom } from "./custom.js";
import type { AnyRole, RoleRecord } from "./types.js";
import { userRole } from "./user-role.js";

export { BUILT_IN_ROLES, builtInRoleFor } from "./catalog.js";

/** Whether an id names a built-in role (whose handoff an agent file cannot redeclare). */
export function isBuiltInRole(id: string): id is AnyRole {
  return Object.hasOwn(BUILT_IN_ROLES, id);
}

/** A role given by id (a built-in; anything else is `custom`) or already looked up. */
export function asRole(role: string | RoleRecord): RoleRecord {
  if (typeof role !== "string") return role;
  return isBuiltInRole(role) ? BUILT_IN_ROLES[role] : custom;
}

/** What the registry needs to know of an agent: its id, and the handoff fields and capabilities its file declares. */
export interface RoleSource {
  id: string;
  handoff?: HandoffFieldSpecs;
  capabilities?: readonly AgentCapability[];
}

// One user role per loaded agent definition, so every node of that agent shares it.
const userRoles = new WeakMap<RoleSource, RoleRecord>();

/**
 * The role an agent plays: the judging role when its node has gates or its file says it judges them, the built-in
 * role of a pipeline agent, the user role its file declares with `handoff:`, or else custom — with the story fan-out
 * when its file declares it. The engine asks this through the workflow's node roles (src/workflow/node-roles.ts),
 * resolved once when the graph is built.
 */
export function roleOf(agentId: string, judgesGates: boolean, agent?: RoleSource): RoleRecord {
  const builtIn = builtInRoleFor(agentId, judgesGates || declares(agent, "judges-gates"));
  if (builtIn !== "custom" || !agent || (!agent.handoff && !declares(agent, "fans-out-stories"))) return BUILT_IN_ROLES[builtIn];
  let role = userRoles.get(agent);
  if (!role) {
    const base = agent.handoff ? userRole(agent.id, agent.handoff) : { ...custom, id: agent.id };
    role = declares(agent, "fans-out-stories") ? { ...base, fansOutStories: true } : base;
    userRoles.set(agent, role);
  }
  return role;
}
