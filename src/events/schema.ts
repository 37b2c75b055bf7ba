import { z } from "zod";
import { LIMIT_KINDS, type LimitKind, type RunStatus } from "./outcome.js";
import { EVENT_SCHEMA_VERSION } from "./version.js";

/**
 * The one contract between the engine and every renderer (Ink, plain lines, `--json`).
 * Bump EVENT_SCHEMA_VERSION whenever an event's shape changes.
 */
export { EVENT_SCHEMA_VERSION };

/**
 * A file edit a tool call will make: the path as the model gave it, the text it replaces (null: the whole file) and
 * the new text; both texts null when together they are over the cap (src/agents/call-edit.ts), the path alone then.
 */
export const toolEditSchema = z.object({ path: z.string(), oldText: z.string().nullable(), newText: z.string().nullable() });
export type ToolEdit = z.infer<typeof toolEditSchema>;

const base = {
  v: z.literal(EVENT_SCHEMA_VERSION),
  thread: z.string(),
  ts: z.string(),
  /** The story whose dev run emitted the event, when stories run in parallel (optional within version 1). */
  story: z.string().optional(),
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

/**
 * What a gate run covered (optional within version 1): the whole suite (`all`), or only the workspaces, modules or
 * crates a change touches and their dependents (`changed`, named in `units`); `reason` says why it ran the whole suite.
 */
const gateScope = z.object({
  kind: z.enum(["changed", "all"]),
  units: z.array(z.string()),
  reason: z.string().optional(),
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
  /** The thread's baseline run, before any agent changed a file (optional within version 1). */
  baseline: z.boolean().optional(),
  /**
   * How this run's results were read (optional within version 1): `structured` from a report the runner wrote for
   * yolo (JUnit XML, JSON), `parsed` from the printed output, `exit-code` when neither listed a test.
   */
  reading: z.enum(["structured", "parsed", "exit-code"]).optional(),
  /** How many tests the runner reported one by one; absent or null with counts only (optional within version 1). */
  tests: z.number().nullable().optional(),
  /** Judged against the baseline by yolo (optional within version 1): tests that passed there and now fail or are missing. */
  regressions: z.array(z.string()).optional(),
  /**
   * Still failing: tests failing at the baseline that do not pass now (or are no longer run), the task's targets.
   * They block, unless the gate opted into `baseline: "report"` (then `preExistingAllowed` is true).
   */
  preExisting: z.array(z.string()).optional(),
  /** True under `baseline: "report"`: failures already there at the baseline are reported and do not block (optional within version 1). */
  preExistingAllowed: z.boolean().optional(),
  /** Fixed: tests failing at the baseline that pass now (optional within version 1). */
  fixed: z.array(z.string()).optional(),
  /** New and passing: tests the baseline did not run that pass now (optional within version 1). */
  newPassing: z.array(z.string()).optional(),
  /** Known failures: failing (or not run) tests a person declared broken outside the task, and where; never blocking (optional within version 1). */
  knownFailures: z.array(z.object({ id: z.string(), declaredIn: z.string() })).optional(),
  /**
   * Each still-failing target's own failure text cut from this run's output, and the baseline's for it when its log
   * could be read: at most 2 KB each, 8 KB in all, cut at a line (optional within version 1).
   */
  targetOutput: z.array(z.object({ id: z.string(), output: z.string().nullable(), baseline: z.string().optional() })).optional(),
  /** Failing tests the baseline did not have (new tests). */
  newFailures: z.array(z.string()).optional(),
  /** Tests that passed at the baseline and were not reported now (counted in `regressions` unless a gate change was approved). */
  missing: z.array(z.string()).optional(),
  /** Things worth a look that do not block on their own, e.g. fewer tests than the baseline. */
  findings: z.array(z.string()).optional(),
  /** What an agent changed in what defines the gate (script, runner config, test files, .only/.skip). */
  gateChange: z.array(z.string()).optional(),
  /** Who made `gateChange`: the gate's configuration (its command), an agent (the project's files), or both. */
  gateChangeBy: z.enum(["configuration", "agent", "both"]).optional(),
  /** True when a human approved `gateChange`. */
  gateChangeApproved: z.boolean().optional(),
  /** yolo's verdict with the baseline applied: true when this gate blocks the change. */
  blocking: z.boolean().optional(),
  /** What this run covered: the changed workspaces only, or the whole suite and why (optional within version 1). */
  scope: gateScope.optional(),
  /** The git tree of the project this run judged, taken just before its commands ran (optional within version 1). */
  treeBefore: z.string().optional(),
  /** The tree just after its commands ended; a difference (gate byproducts aside) is a blocking finding naming the files. */
  treeAfter: z.string().optional(),
  /**
   * The tests the baseline ran, judged apart in a copy of the project holding the baseline's test files and the
   * agent's other changes (optional within version 1): set when an agent added or changed test-side files.
   */
  baselineTestsRun: z.enum(["clean-copy"]).optional(),
  /** The gate failed because of its environment, not the code: the kind, the output line that shows it, the fix (optional within version 1). */
  environment: z
    .object({ kind: z.enum(["read-only", "missing-toolchain", "permission", "disk", "network", "not-installed"]), line: z.string(), fix: z.string() })
    .optional(),
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
    /** The sandbox commands and gates run in; without one, why and the one-line fix (optional, as above). */
    sandbox: z.object({ kind: z.enum(["bwrap", "none"]), reason: z.string().optional(), fix: z.string().optional() }).optional(),
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
  /** The model's reasoning as it streams, where the server sends it (`reasoning_content`); a new type within version 1. */
  z.object({ ...base, type: z.literal("thought"), node: z.string(), text: z.string() }),
  z.object({
    ...base,
    type: z.literal("tool.called"),
    node: z.string(),
    tool: z.string(),
    callId: z.string(),
    args: z.string(),
    /** For write_file and edit_file, what the call will change, from its whole arguments (optional within version 1). */
    edit: toolEditSchema.optional(),
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
    /** The thread's baseline run, before any agent changed a file (optional within version 1). */
    baseline: z.boolean().optional(),
    /** What this run covers: the changed workspaces only, or the whole suite and why (optional within version 1). */
    scope: gateScope.optional(),
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
  /** A user hook ran (added within version 1): which one, on what, and what it decided. */
  z.object({
    ...base,
    type: z.literal("hook.result"),
    event: z.enum(["PreToolUse", "PostToolUse", "NodeStart", "NodeEnd", "GateEnd", "RunEnd"]),
    /** The hook's command, on one line, secrets scrubbed. */
    hook: z.string(),
    source: z.enum(["user", "project"]),
    node: z.string().optional(),
    tool: z.string().optional(),
    decision: z.enum(["none", "allow", "deny", "block", "stop", "error", "timeout"]),
    /** True when it refused the tool call, fed a block back to the model, or stopped the run. */
    blocked: z.boolean(),
    exitCode: z.number().nullable(),
    durationMs: z.number(),
    /** The refusal or feedback the model reads, a failure's stderr tail, or why the run stops (scrubbed). */
    reason: z.string().optional(),
  }),
  /** A story's dev run starts in its own worktree (added within version 1; stories in parallel). */
  z.object({
    ...base,
    type: z.literal("story.started"),
    story: z.string(),
    title: z.string(),
    dependsOn: z.array(z.string()),
    branch: z.string(),
  }),
  /** A story's dev run ended (added within version 1). */
  z.object({
    ...base,
    type: z.literal("story.completed"),
    story: z.string(),
    status: z.enum(["done", "failed"]),
    filesChanged: z.array(z.string()),
    usage,
    summary: z.string(),
  }),
  /** A story's branch was merged into the thread's working tree (added within version 1). */
  z.object({
    ...base,
    type: z.literal("story.merged"),
    story: z.string(),
    /** Files that conflicted and were handed to a dev run to resolve; empty for a clean merge. */
    conflicts: z.array(z.string()),
  }),
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
    /** Baseline failures a human accepted as known failures for this thread, when dev said they are unrelated (optional within version 1). */
    acceptedFailures: z.array(z.object({ id: z.string(), gate: z.string(), by: z.string() })).optional(),
  }),
]);

export type YoloEvent = z.infer<typeof yoloEventSchema>;
export type YoloEventType = YoloEvent["type"];
export type GateResult = z.infer<typeof gateResult>;
export type GateScope = z.infer<typeof gateScope>;
export type Usage = z.infer<typeof usage>;
/**
 * How a run (or one leg of it) ended, as `run.completed` states it: the engine builds the event from it
 * (src/engine/run/completed.ts) and the views keep it to show at the end (src/ui/view-state.ts). `limit` is null
 * unless a limit stopped it.
 */
export interface RunEnd {
  status: RunStatus;
  limit: LimitKind | null;
  exitCode: number;
  reason: string;
  usage: Usage;
  filesChanged: string[];
  resumeCommand: string | null;
  /** Baseline failures a human accepted as known failures for this thread (absent when none). */
  acceptedFailures?: Array<{ id: string; gate: string; by: string }>;
}

/** An event as the engine emits it, before the envelope (`v`, `thread`, `ts`) is stamped on. */
export type EventBody = YoloEvent extends infer E ? (E extends YoloEvent ? Omit<E, "v" | "thread" | "ts"> : never) : never;
