import type { GateResult, Usage } from "../events/schema.js";

// The thread state's data shapes as plain types (no LangGraph): state/pipeline.ts builds its Annotation from them, and
// the layers below the engine (prompt, middleware) read them without importing the engine.

export interface Story {
  /** pm's id for the story (optional in old handoffs: then `s<N>` by position). */
  id?: string;
  /** Ids of the stories this one needs first (optional in old handoffs: then it needs every story before it). */
  depends_on?: string[];
  title: string;
  as_a: string;
  i_want: string;
  so_that: string;
  acceptance_criteria: string[];
}
export interface Decision {
  title: string;
  decision: string;
  rationale: string;
}
export interface HumanAnswer {
  node: string;
  question: string;
  answer: string;
}
/** What a custom (non-pipeline) agent handed off. */
export interface AgentNote {
  summary: string;
  findings: string[];
  verdict: Verdict | null;
  /** A user role's declared handoff values (src/roles/user-role.ts), by field name. */
  outputs?: Record<string, unknown>;
}
/** A switch node's decision: the case taken and what the model really answered. */
export interface SwitchDecision {
  node: string;
  taken: string;
  to: string;
  raw: string;
  fallback: string | null;
}
/** A human review of an agent's output. */
export interface Review {
  /** The human node. */
  by: string;
  /** The agent node reviewed, or null for a plain sign-off. */
  node: string | null;
  action: "approve" | "edit" | "reject";
  reason: string | null;
}
/** One exchange of an `agent` / `chat` thread: what the user typed, or what the agent answered. */
export interface Turn {
  role: "user" | "agent";
  text: string;
}
/** A gate run as kept in history: the verdict without the output (the full log stays on disk). */
export type GateSummary = Omit<GateResult, "tail">;
/**
 * The thread's gate baseline, taken before any agent changed a file: a summary in state, the whole record (what
 * defines the gates, every test's result) on disk at `file`, so checkpoints stay small.
 */
export interface GateBaselineRef {
  /** The record's absolute path (gate-baseline.jsonl in the thread's artifacts folder); null when there is no gate. */
  file: string | null;
  /** Why the thread has no gate (no package.json, npm's placeholder test script, nothing detected), or null when it has one. */
  noGate: string | null;
  /** `reading`: how the baseline's results were read (GateResult.reading); absent in older threads. */
  gates: Array<{
    name: string;
    passed: boolean;
    passedCount: number | null;
    failedCount: number | null;
    tests: number | null;
    reading?: "structured" | "parsed" | "exit-code";
  }>;
}
/** A gate change a human approved: the definition approved (on disk at `file`) is what later runs are compared with. */
export interface GateApproval {
  file: string;
  changes: string[];
  by: string;
}
export type Verdict = "PASS" | "CONCERNS" | "FAIL";
/**
 * A human's ruling on a test dev claimed unrelated to the task while it failed as at the baseline: accepted, it is
 * a known failure for the rest of the thread; refused, it stays a target and dev gets the reason.
 */
export interface FailureRuling {
  /** The test's id as yolo names it. */
  id: string;
  gate: string;
  accepted: boolean;
  /** The node that asked. */
  by: string;
  reason: string | null;
  /** The node whose handoff made the claim (absent in rulings from before it was kept: the default pipeline's coder). */
  claimedBy?: string;
}

/** The project's git tree the latest gate run judged, and the node that ran it (where a later change sends the run back). */
export interface JudgedTree {
  node: string;
  tree: string;
}

/**
 * The part of the thread's state the prompt and the middleware read. The engine hands them its whole state
 * (`PipelineStateType` has these fields and more); a layer below the engine names only what it needs.
 */
export interface StateView {
  requirement: string;
  requirements: string | null;
  acceptanceCriteria: string[];
  stories: Story[];
  decisions: Decision[];
  devSummary: string | null;
  filesChanged: string[];
  lastGates: GateResult[];
  gateBlocked: boolean;
  fixAttempts: number;
  findings: string[];
  verdict: Verdict | null;
  /** The node that gave the verdict (absent or null: a thread from before it was kept). */
  verdictBy?: string | null;
  answers: HumanAnswer[];
  notes: Record<string, AgentNote>;
  reviews: Review[];
  usage: Usage;
}
