import { z } from "zod";
import { planProblems } from "../engine/stories/plan.js";

/** The pipeline roles whose `handoff` arguments are public API. */
export const ROLES = ["analyst", "pm", "architect", "dev", "tea"] as const;
export type Role = (typeof ROLES)[number];
/** A role, or `custom` for an agent of a user-defined workflow (it hands off a summary and findings). */
export type AnyRole = Role | "custom";

/** The role an agent node plays: an agent that judges gates is a tea; unknown agents are custom. */
export function roleFor(agentId: string, judgesGates: boolean): AnyRole {
  if (judgesGates) return "tea";
  return (ROLES as readonly string[]).includes(agentId) ? (agentId as Role) : "custom";
}

const escalation = {
  escalate_to_human: z
    .boolean()
    .optional()
    .describe("true only when you cannot continue without a human decision; then `question` is required"),
  question: z.string().optional().describe("the question for the human, when escalate_to_human is true"),
};

const story = z.object({
  id: z.string().optional().describe("a short id for the story (lowercase letters, digits, - or _), e.g. \"parse-args\"; default s1, s2, … by position"),
  depends_on: z
    .array(z.string())
    .optional()
    .describe("ids of the stories that must be built before this one; [] when it is independent. Omitted everywhere: each story depends on all before it"),
  title: z.string().min(1),
  as_a: z.string().min(1),
  i_want: z.string().min(1),
  so_that: z.string().min(1),
  acceptance_criteria: z.array(z.string().min(1)).min(1),
});

const decision = z.object({
  title: z.string().min(1),
  decision: z.string().min(1),
  rationale: z.string().min(1),
});

/** Story ids and depends_on must make a plan the fan-out can run: unique, valid ids, known dependencies, no cycle. */
function checkPlan(stories: z.output<typeof story>[], ctx: z.RefinementCtx): void {
  for (const p of planProblems(stories)) ctx.addIssue({ code: "custom", path: [p.index, p.field], message: p.message });
}

/** Each role's output fields; they are required unless the agent escalates. */
const ROLE_FIELDS = {
  analyst: {
    requirements: z.string().min(1).describe("the refined requirements, as Markdown"),
    acceptance_criteria: z.array(z.string().min(1)).min(1).describe("testable acceptance criteria"),
  },
  pm: {
    stories: z.array(story).min(1).superRefine(checkPlan).describe("user stories with their acceptance criteria"),
    needs_architecture: z.boolean().describe("true when the change needs design decisions before coding"),
  },
  architect: {
    decisions: z.array(decision).min(1).describe("architecture decisions with their rationale"),
  },
  dev: {
    summary: z.string().min(1).describe("what you changed and why"),
    files_changed: z.array(z.string()).describe("project-relative paths you created or modified"),
  },
  tea: {
    verdict: z.enum(["PASS", "CONCERNS", "FAIL"]).describe("PASS, CONCERNS or FAIL; a red required gate is never PASS"),
    findings: z.array(z.string()).describe("what you found, most important first"),
  },
  custom: {
    summary: z.string().min(1).describe("what you did and concluded"),
    findings: z.array(z.string()).optional().describe("what you found, most important first"),
  },
} satisfies Record<AnyRole, z.ZodRawShape>;

/** The declared flags an agent sets, as required boolean handoff fields. */
function flagFields(flags: string[]): z.ZodRawShape {
  return Object.fromEntries(flags.map((f) => [f, z.boolean().describe(`true or false: your decision on "${f}" (the workflow branches on it)`)]));
}

export type HandoffFor<R extends AnyRole> = z.output<z.ZodObject<(typeof ROLE_FIELDS)[R]>> & {
  escalate_to_human?: boolean;
  question?: string;
};

/**
 * The zod schema the `handoff` arguments of a role are validated with. An escalating agent only needs its
 * question; otherwise every output field is checked and all problems are reported to the model at once.
 */
export function handoffSchema(role: AnyRole, flags: string[] = []): z.ZodType<Record<string, unknown>> {
  const complete = z.object({ ...ROLE_FIELDS[role], ...flagFields(flags), ...escalation });
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
export function handoffJsonSchema(role: AnyRole, flags: string[] = []): Record<string, unknown> {
  const json = z.toJSONSchema(z.object({ ...ROLE_FIELDS[role], ...flagFields(flags), ...escalation }), { io: "input" }) as Record<string, unknown>;
  delete json.$schema;
  return json;
}

export const HANDOFF_DESCRIPTION =
  "Finish your turn and hand your results to the next step. Call it exactly once, when your work is done " +
  "(or with escalate_to_human and question when only a human can unblock you). Calling it ends your turn.";
