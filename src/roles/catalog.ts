// The one list of yolo's built-in roles: their ids in display order, which of them make the default pipeline, and
// what each does that the engine must know (its capabilities). Light on purpose (no zod, no YAML): `yolo show`,
// `yolo history`, the prompt and the default workflow read it; the role modules take their capabilities from it.

/** What a role does that the engine must know, beyond its handoff: the engine asks these, never a role's id. */
export interface RoleCapabilities {
  /** Its node builds pm's stories in parallel, one run of its agent per story (the story node), then merges them. */
  fansOutStories?: boolean;
  /** It judges the gates: yolo runs a node's `gates` before it, and it is never on a fix attempt itself. */
  judgesGates?: boolean;
  /** A question whose asker a checkpoint does not name is credited to it (the first role that may ask). */
  asksHuman?: boolean;
  /** It writes code: the workspace commits its iteration (`--branch`). */
  writesCode?: boolean;
}

/** One built-in role as the catalog lists it. */
export interface CatalogEntry<Id extends string = string> {
  id: Id;
  /** It is a step of the default pipeline (in this order); `custom` is not. */
  pipeline: boolean;
  capabilities: Readonly<RoleCapabilities>;
  /** A pipeline step that runs only when this workflow condition holds; otherwise the pipeline goes past it. */
  runsWhen?: string;
}

/**
 * The built-in roles in the order `yolo show` and the report display their output. Adding one: an entry here and a
 * module beside the others (src/roles/<id>.ts) listed in BUILT_IN_ROLES (registry.ts); DISPLAYS and HISTORY_LINES
 * are keyed by these ids, so the type checker asks for its line and its sections.
 */
export const ROLE_CATALOG = [
  { id: "analyst", pipeline: true, capabilities: { asksHuman: true } },
  { id: "pm", pipeline: true, capabilities: {} },
  { id: "architect", pipeline: true, capabilities: {}, runsWhen: "needs_architecture" },
  { id: "custom", pipeline: false, capabilities: { writesCode: true } },
  { id: "dev", pipeline: true, capabilities: { writesCode: true, fansOutStories: true } },
  { id: "tea", pipeline: true, capabilities: { judgesGates: true } },
] as const satisfies readonly CatalogEntry[];

/** A built-in role's id, or `custom` for an agent of a user-defined workflow. */
export type AnyRole = (typeof ROLE_CATALOG)[number]["id"];
/** The built-in pipeline roles whose `handoff` arguments are public API. */
export type Role = Extract<(typeof ROLE_CATALOG)[number], { pipeline: true }>["id"];

/** The pipeline roles in pipeline order (analyst → pm → architect → dev → tea). */
export const ROLES: readonly Role[] = ROLE_CATALOG.filter((r) => r.pipeline).map((r) => r.id as Role);

/** The capabilities of a built-in role. */
export function capabilitiesOf(id: AnyRole): Readonly<RoleCapabilities> {
  return ROLE_CATALOG.find((r) => r.id === id)!.capabilities;
}

/** The condition a pipeline step runs under (`runsWhen`), or null when it always runs. */
export function runsWhenOf(id: AnyRole): string | null {
  return (ROLE_CATALOG.find((r) => r.id === id) as CatalogEntry).runsWhen ?? null;
}

/** The built-in roles with a capability, in catalog order. */
export function rolesThat(capability: keyof RoleCapabilities): AnyRole[] {
  return ROLE_CATALOG.filter((r) => (r.capabilities as RoleCapabilities)[capability] === true).map((r) => r.id);
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
export const DEFAULT_CODER: string = ROLES.find((id) => capabilitiesOf(id).writesCode === true) ?? "custom";
