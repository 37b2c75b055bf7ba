import { z } from "zod";
import { LIMIT_KINDS } from "./outcome.js";

/**
 * The one contract between the engine and every renderer (Ink, plain lines, `--json`).
 * Bump EVENT_SCHEMA_VERSION whenever an event's shape changes.
 */
export const EVENT_SCHEMA_VERSION = 1;

const base = {
  v: z.literal(EVENT_SCHEMA_VERSION),
  thread: z.string(),
  ts: z.string(),
};

const usage = z.object({
  promptTokens: z.number(),
  completionTokens: z.number(),
  totalTokens: z.number(),
  calls: z.number(),
  /** Of the prompt tokens, those the provider served from its prompt cache, where it reports them (optional in v1). */
  cachedTokens: z.number().optional(),
  /** Of the completion tokens, those a reasoning model spent thinking, where it reports them (optional in v1). */
  reasoningTokens: z.number().optional(),
  /** true: the server reported no usage and these counts are yolo's estimate (about four characters a token). */
  estimated: z.boolean().optional(),
});

const gateResult = z.object({
  name: z.string(),
  command: z.string(),
  required: z.boolean(),
  passed: z.boolean(),
  exitCode: z.number().nullable(),
  timedOut: z.boolean(),
  durationMs: z.number(),
  attempt: z.number(),
  passedCount: z.number().nullable(),
  failedCount: z.number().nullable(),
  failures: z.array(z.string()),
  tail: z.string(),
  logFile: z.string().nullable(),
});

export const yoloEventSchema = z.discriminatedUnion("type", [
  z.object({
    ...base,
    type: z.literal("run.started"),
    requirement: z.string(),
    model: z.string(),
    resumed: z.boolean(),
    nodes: z.array(z.string()),
    logFile: z.string(),
    /** How many times a blocked gate may send the change back (optional: added within version 1). */
    maxFixAttempts: z.number().optional(),
    /** On resume: the nodes that already ran in this thread, and its token usage so far (optional, as above). */
    ran: z.array(z.string()).optional(),
    usageSoFar: usage.optional(),
    /** The configured model price, so views can show the cost so far; null without one (optional, as above). */
    price: z.object({ inputPerMillion: z.number(), outputPerMillion: z.number(), currency: z.string() }).nullable().optional(),
    /** The thread's mode: `run` (a workflow), `agent` (one agent on its own) or `chat` (optional, as above). */
    mode: z.enum(["run", "agent", "chat"]).optional(),
    /** A follow-up of an `agent` / `chat` thread: the new message this leg answers (optional, as above). */
    message: z.string().optional(),
  }),
  z.object({
    ...base,
    type: z.literal("node.started"),
    node: z.string(),
    fixAttempt: z.number(),
    /** The thread's completed steps before this node (resumes included); optional within version 1. */
    step: z.number().optional(),
  }),
  z.object({
    ...base,
    type: z.literal("node.completed"),
    node: z.string(),
    summary: z.string(),
    /** True when the node blocked the change: a required gate failed or its judge said FAIL (optional within version 1). */
    blocked: z.boolean().optional(),
  }),
  z.object({ ...base, type: z.literal("token"), node: z.string(), text: z.string() }),
  z.object({
    ...base,
    type: z.literal("tool.called"),
    node: z.string(),
    tool: z.string(),
    callId: z.string(),
    args: z.string(),
  }),
  z.object({
    ...base,
    type: z.literal("tool.result"),
    node: z.string(),
    tool: z.string(),
    callId: z.string(),
    ok: z.boolean(),
    summary: z.string(),
  }),
  /** A gate command is about to run (added within version 1; its `gate.result` follows). */
  z.object({
    ...base,
    type: z.literal("gate.started"),
    node: z.string(),
    name: z.string(),
    command: z.string(),
    attempt: z.number(),
  }),
  z.object({ ...base, type: z.literal("gate.result"), node: z.string(), gate: gateResult }),
  z.object({ ...base, type: z.literal("route"), from: z.string(), to: z.string(), reason: z.string() }),
  z.object({
    ...base,
    type: z.literal("interrupt"),
    node: z.string(),
    askedBy: z.string(),
    question: z.string(),
    resumeCommand: z.string(),
    /** `question`: an agent asked (answer with --answer); `approval`: a human step (--approve, --edit, --reject). */
    kind: z.enum(["question", "approval"]).optional(),
    /** For an approval: the output to review, in the format an edit must keep. */
    artifact: z.string().nullable().optional(),
  }),
  z.object({ ...base, type: z.literal("usage"), node: z.string(), usage }),
  z.object({
    ...base,
    type: z.literal("context.summarized"),
    node: z.string(),
    agent: z.string(),
    tokensBefore: z.number(),
    tokensAfter: z.number(),
    threshold: z.number(),
    replacedMessages: z.number(),
  }),
  z.object({ ...base, type: z.literal("reply"), node: z.string(), text: z.string() }),
  z.object({ ...base, type: z.literal("warning"), message: z.string() }),
  z.object({ ...base, type: z.literal("error"), code: z.string(), message: z.string() }),
  z.object({
    ...base,
    type: z.literal("run.completed"),
    status: z.enum(["passed", "failed", "waiting", "limit", "provider_error", "interrupted", "config_error", "error"]),
    /** With status `limit`: which limit stopped the run; it picks the exit code (optional: added within version 1). */
    limit: z.enum(LIMIT_KINDS).optional(),
    exitCode: z.number(),
    reason: z.string(),
    usage,
    filesChanged: z.array(z.string()),
    resumeCommand: z.string().nullable(),
  }),
]);

export type YoloEvent = z.infer<typeof yoloEventSchema>;
export type YoloEventType = YoloEvent["type"];
export type GateResult = z.infer<typeof gateResult>;
export type Usage = z.infer<typeof usage>;
/** An event as the engine emits it, before the envelope (`v`, `thread`, `ts`) is stamped on. */
export type EventBody = YoloEvent extends infer E ? (E extends YoloEvent ? Omit<E, "v" | "thread" | "ts"> : never) : never;
