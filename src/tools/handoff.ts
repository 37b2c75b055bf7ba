import type { z } from "zod";
import { asRole, type BUILT_IN_ROLES, builtInRoleFor } from "../roles/registry.js";
import { roleHandoffJsonSchema, roleHandoffSchema } from "../roles/handoff-schema.js";
import type { AnyRole, HandoffOf, RoleDefinition } from "../roles/types.js";

// Roles now live in src/roles/ (one module each, looked up in src/roles/registry.ts); these are the old entry points.
export { ROLES, type AnyRole, type Role } from "../roles/types.js";

/** The role an agent node plays: an agent that judges gates is a tea; unknown agents are custom. */
export const roleFor = builtInRoleFor;

export type HandoffFor<R extends AnyRole> = HandoffOf<(typeof BUILT_IN_ROLES)[R]["fields"]>;

/**
 * The zod schema the `handoff` arguments of a role are validated with. An escalating agent only needs its
 * question; otherwise every output field is checked and all problems are reported to the model at once.
 */
export function handoffSchema(role: AnyRole | RoleDefinition, flags: string[] = []): z.ZodType<Record<string, unknown>> {
  return roleHandoffSchema(asRole(role), flags);
}

/** The JSON schema of a role's `handoff` tool as offered to the model. */
export function handoffJsonSchema(role: AnyRole | RoleDefinition, flags: string[] = []): Record<string, unknown> {
  return roleHandoffJsonSchema(asRole(role), flags);
}

export const HANDOFF_DESCRIPTION =
  "Finish your turn and hand your results to the next step. Call it exactly once, when your work is done " +
  "(or with escalate_to_human and question when only a human can unblock you). Calling it ends your turn.";
