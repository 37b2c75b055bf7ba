import { z } from "zod";
import type { RoleRecord } from "./types.js";

const escalation = {
  escalate_to_human: z.boolean().optional().describe("true only when you cannot continue without a human decision; then `question` is required"),
  question: z.string().optional().describe("the question for the human, when escalate_to_human is true"),
};

/** Handoff keys every role has; a user role may not declare a field with one of these names. */
export const RESERVED_HANDOFF_KEYS = Object.keys(escalation);

/** What a handoff schema is built from: a role's fields and its size bound. */
export type HandoffShape = Pick<RoleRecord, "fields" | "maxOutputBytes">;

// Each record's fields built once: keyed by the builder, which a role copied from another (`{ ...custom, id }`) shares.
const built = new WeakMap<HandoffShape["fields"], z.ZodRawShape>();

/** A role's handoff fields as zod, built from its record (once). */
export function handoffFields(role: Pick<HandoffShape, "fields">): z.ZodRawShape {
  let fields = built.get(role.fields);
  if (!fields) {
    fields = role.fields(z);
    built.set(role.fields, fields);
  }
  return fields;
}

/** The declared flags an agent sets, as required boolean handoff fields. */
function flagFields(flags: string[]): z.ZodRawShape {
  return Object.fromEntries(flags.map((f) => [f, z.boolean().describe(`true or false: your decision on "${f}" (the workflow branches on it)`)]));
}

function completeShape(role: HandoffShape, flags: string[]): z.ZodRawShape {
  return { ...handoffFields(role), ...flagFields(flags), ...escalation };
}

/**
 * The zod schema the `handoff` arguments of a role are validated with. An escalating agent only needs its
 * question; otherwise every output field is checked and all problems are reported to the model at once.
 */
export function roleHandoffSchema(role: HandoffShape, flags: string[] = []): z.ZodType<Record<string, unknown>> {
  const fieldNames = Object.keys(handoffFields(role));
  let complete: z.ZodType<Record<string, unknown>> = z.object(completeShape(role, flags));
  const max = role.maxOutputBytes;
  if (max !== undefined) {
    // Each field is bounded, but many full fields together could still bloat every later checkpoint.
    complete = complete.superRefine((h, ctx) => {
      const size = Buffer.byteLength(JSON.stringify(Object.fromEntries(fieldNames.map((k) => [k, h[k]]))));
      if (size > max)
        ctx.addIssue({
          code: "custom",
          path: [],
          message: `the handoff is ${size} bytes; keep its fields under ${max} bytes together (put long text in files and name them)`,
        });
    });
  }
  const escalating = z.looseObject({
    escalate_to_human: z.literal(true),
    question: z.string({ error: "required when escalate_to_human is true" }).trim().min(1, "required when escalate_to_human is true"),
  });
  return z.unknown().transform((value, ctx) => {
    const asks = typeof value === "object" && value !== null && (value as Record<string, unknown>).escalate_to_human === true;
    const result = (asks ? escalating : complete).safeParse(value);
    if (result.success) return result.data as Record<string, unknown>;
    for (const issue of result.error.issues) ctx.addIssue({ code: "custom", path: issue.path as PropertyKey[], message: issue.message });
    return z.NEVER;
  });
}

/** The JSON schema of a role's `handoff` tool as offered to the model. */
export function roleHandoffJsonSchema(role: HandoffShape, flags: string[] = []): Record<string, unknown> {
  const json = z.toJSONSchema(z.object(completeShape(role, flags)), { io: "input" }) as Record<string, unknown>;
  delete json.$schema;
  return json;
}

/** What the `handoff` tool is for, as offered to the model. */
export const HANDOFF_DESCRIPTION =
  "Finish your turn and hand your results to the next step. Call it exactly once, when your work is done " +
  "(or with escalate_to_human and question when only a human can unblock you). Calling it ends your turn.";
