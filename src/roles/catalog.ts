// The one list of yolo's built-in roles: their records in display order. Each record (src/roles/<id>.ts) holds all of
// its role: capabilities, place in the pipeline, default agent file, handoff, brief, review, history line and display.
// Light on purpose: a record takes zod and YAML from the code that uses its schema or its review (handoff-schema.ts,
// review-kit.ts), so `yolo show`, `yolo history`, the prompt and the default workflow read records without them.
import { analyst } from "./analyst.js";
import { architect } from "./architect.js";
import { custom } from "./custom.js";
import { dev } from "./dev.js";
import { pm } from "./pm.js";
import { tea } from "./tea.js";
import type { AnyRole, RoleCapabilities, RoleRecord } from "./types.js";

export type { AnyRole } from "./types.js";

/**
 * The built-in roles in the order `yolo show` and the report display their output. Adding one: a file beside these
 * (src/roles/<id>.ts) holding its `defineRole` record, listed here and named in AnyRole (types.ts); a pipeline role
 * also ships its `defaultAgent` under agents/.
 */
export const ROLE_CATALOG = [analyst, pm, architect, custom, dev, tea] as const;

/** The built-in pipeline roles whose `handoff` arguments are public API. */
export type Role = Extract<(typeof ROLE_CATALOG)[number], { pipeline: true }>["id"];

/** The built-in roles by id, in the catalog's order: every AnyRole, and nothing else. */
export const BUILT_IN_ROLES: Readonly<Record<AnyRole, RoleRecord>> = Object.freeze({ analyst, pm, architect, custom, dev, tea } satisfies Record<
  AnyRole,
  RoleRecord
>);

/** The pipeline roles in pipeline order (analyst → pm → architect → dev → tea). */
export const ROLES: readonly Role[] = ROLE_CATALOG.filter((r) => r.pipeline === true).map((r) => r.id as Role);

/** The built-in roles with a capability, in catalog order. */
export function rolesThat(capability: keyof RoleCapabilities): AnyRole[] {
  return ROLE_CATALOG.filter((r) => r[capability] === true).map((r) => r.id);
}

/** Whether an agent id is one of the pipeline roles (whose handoff an agent file cannot redeclare). */
export function isPipelineRole(id: string): id is Role {
  return (ROLES as readonly string[]).includes(id);
}

/**
 * The capabilities an agent's own file may give its role (`capabilities:` in the frontmatter), as the engine knows
 * them. Writing code needs no declaring: every custom agent's role writes code.
 */
export const AGENT_CAPABILITIES = { "fans-out-stories": "fansOutStories", "judges-gates": "judgesGates" } as const satisfies Record<
  string,
  keyof RoleCapabilities
>;
export type AgentCapability = keyof typeof AGENT_CAPABILITIES;

/** Whether an agent's own file gives its role a capability (`capabilities:` in its frontmatter). */
export function declares(agent: { capabilities?: readonly AgentCapability[] } | undefined, capability: AgentCapability): boolean {
  return agent?.capabilities?.includes(capability) === true;
}

/**
 * The default pipeline's judging role: the author of a verdict whose checkpoint does not name its node (a thread
 * from before `verdictBy` was kept read as it did then).
 */
export const DEFAULT_JUDGE: string = rolesThat("judgesGates")[0];

/**
 * The default pipeline's role that writes code: who made the claims, or is sent the failures, when neither the
 * checkpoint nor the workflow names a node.
 */
export const DEFAULT_CODER: string = ROLES.find((id) => BUILT_IN_ROLES[id].writesCode === true) ?? "custom";

/** The built-in role an agent id plays: an agent that judges gates plays the judging role; unknown agents are custom. */
export function builtInRoleFor(agentId: string, judgesGates: boolean): AnyRole {
  if (judgesGates) return DEFAULT_JUDGE as AnyRole;
  return isPipelineRole(agentId) ? agentId : "custom";
}
