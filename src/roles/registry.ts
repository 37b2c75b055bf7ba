import type { HandoffFieldSpecs } from "./field-spec.js";
import { analyst } from "./analyst.js";
import { architect } from "./architect.js";
import { custom } from "./custom.js";
import { dev } from "./dev.js";
import { pm } from "./pm.js";
import { tea } from "./tea.js";
import { type AgentCapability, declares } from "./catalog.js";
import type { AnyRole, RoleDefinition } from "./types.js";
import { userRole } from "./user-role.js";
import { builtInRoleFor } from "./history-lines.js";

/**
 * The built-in roles by id, in the catalog's order (the order `yolo show` and the report display their output).
 * Adding one: an entry in ROLE_CATALOG (catalog.ts), then a module beside these, listed here. `custom` also displays
 * user roles' notes.
 */
export const BUILT_IN_ROLES = { analyst, pm, architect, custom, dev, tea } satisfies Record<AnyRole, RoleDefinition>;

/** Whether an id names a built-in role (whose handoff an agent file cannot redeclare). */
export function isBuiltInRole(id: string): id is AnyRole {
  return Object.hasOwn(BUILT_IN_ROLES, id);
}

/** A role given by id (a built-in; anything else is `custom`) or already looked up. */
export function asRole(role: string | RoleDefinition): RoleDefinition {
  if (typeof role !== "string") return role;
  return isBuiltInRole(role) ? BUILT_IN_ROLES[role] : custom;
}

export { builtInRoleFor } from "./history-lines.js";

/** What the registry needs to know of an agent: its id, and the handoff fields and capabilities its file declares. */
export interface RoleSource {
  id: string;
  handoff?: HandoffFieldSpecs;
  capabilities?: readonly AgentCapability[];
}

// One user role per loaded agent definition, so every node of that agent shares it.
const userRoles = new WeakMap<RoleSource, RoleDefinition>();

/**
 * The role an agent node plays: the judging role when its node has gates or its file says it judges them, the
 * built-in role of a pipeline agent, the user role its file declares with `handoff:`, or else custom — with the
 * story fan-out when its file declares it.
 */
export function roleOf(agentId: string, judgesGates: boolean, agent?: RoleSource): RoleDefinition {
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
