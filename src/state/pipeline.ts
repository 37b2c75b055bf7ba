import { Annotation, DeltaChannel } from "@langchain/langgraph";
import type { GateResult, Usage } from "../events/schema.js";
import { addUsage, ZERO_USAGE } from "../events/usage.js";
import { mergeStoryRuns, type StoryRun } from "./story-runs.js";
import type {
  AgentNote,
  Decision,
  FailureRuling,
  GateApproval,
  GateBaselineRef,
  GateSummary,
  HumanAnswer,
  JudgedTree,
  Review,
  Story,
  SwitchDecision,
  Turn,
  Verdict,
} from "./types.js";

// The state's plain data shapes (no LangGraph), for modules that read them without the Annotation.
export type * from "./types.js";

const last = <T>(initial: () => T) => Annotation<T>({ reducer: (_old: T, next: T) => next, default: initial });
const append = <T>() => Annotation<T[]>({ reducer: (old: T[], next: T[]) => old.concat(next), default: () => [] });

/**
 * The pipeline's state. Every flag a router reads is declared here (LangGraph silently drops undeclared keys),
 * and what accumulates has a reducer. Large things (transcripts, full test output) live on disk under
 * `.yolo/threads/<id>/`, so a checkpoint stays small and grows linearly with the run.
 */
export const PipelineState = Annotation.Root({
  requirement: last<string>(() => ""),
  // the thread's profile: `run` (a workflow), `agent` (one agent on its own) or `chat`; resume rebuilds its graph from it
  mode: last<string>(() => "run"),
  /** In `agent` mode, the agent the thread runs. */
  agentId: last<string | null>(() => null),
  /** The conversation of an `agent` / `chat` thread: each message and each answer, in order (follow-ups append). */
  conversation: append<Turn>(),
  // analyst
  requirements: last<string | null>(() => null),
  acceptanceCriteria: last<string[]>(() => []),
  // pm
  stories: last<Story[]>(() => []),
  needsArchitecture: last<boolean>(() => false),
  /** Each story's run when stories are implemented in parallel (docs/stories.md); keyed by story id, merged per story. */
  storyRuns: Annotation<Record<string, StoryRun>, Record<string, Partial<StoryRun> & { id: string }>>({ reducer: mergeStoryRuns, default: () => ({}) }),
  /** True while pm's stories are being built in parallel (dev dispatched them; the merge step clears it when all are merged). */
  storiesActive: last<boolean>(() => false),
  /** The thread's `parallel` (recorded at its first dispatch; a resume keeps it unless `--parallel` is given); null before. */
  storyParallel: last<number | null>(() => null),
  /**
   * The wall time of the stories running in one superstep: each story writes its duration, the longest is kept, and
   * the merge step adds it to `activeMs` (summing concurrent stories would count the same minutes several times).
   */
  storyWallMs: Annotation<number>({ reducer: (old, next) => (next < 0 ? 0 : Math.max(old, next)), default: () => 0 }),
  // architect
  decisions: append<Decision>(),
  // dev
  devSummary: last<string | null>(() => null),
  filesChanged: Annotation<string[]>({
    reducer: (old, next) => [...new Set([...old, ...next])],
    default: () => [],
  }),
  // tea and the gate
  verdict: last<Verdict | null>(() => null),
  /** The node whose judge wrote the verdict, for the words that name it (null: a thread from before it was kept). */
  verdictBy: last<string | null>(() => null),
  findings: last<string[]>(() => []),
  /** The latest gate run, with output tails: what dev reads on a fix attempt. */
  lastGates: last<GateResult[]>(() => []),
  /**
   * Every gate run of the thread, without output. A delta channel: checkpoints store each step's new entries,
   * not the whole list again, so a long fix loop does not make checkpoints grow quadratically.
   */
  gateHistory: () =>
    new DeltaChannel<GateSummary[], GateSummary[]>((old, writes) => writes.reduce((all, w) => all.concat(w), old), {
      initialValueFactory: () => [],
    }),
  gateBlocked: last<boolean>(() => false),
  /** The gate baseline of a `run` thread (null until taken, and for threads started before baselines existed). */
  gateBaseline: last<GateBaselineRef | null>(() => null),
  /** The latest gate change a human approved, or null. */
  gateApproval: last<GateApproval | null>(() => null),
  /** Baseline failures dev's last handoff claimed are not part of the task (test ids); a human rules on them. */
  failureClaims: last<string[]>(() => []),
  /** The node whose handoff made those claims, for the words that name it (null: a thread from before it was kept). */
  failureClaimsBy: last<string | null>(() => null),
  /** A human's rulings on those claims: accepted ones are known failures for the rest of the thread. */
  failureRulings: append<FailureRuling>(),
  /** The tree the latest gate run judged (null before any, or outside git). */
  judgedTree: last<JudgedTree | null>(() => null),
  /**
   * The gate node to go back to: set when an agent's step left the project different from the tree the latest passing
   * gate judged, so nothing ships that no gate ran on; null otherwise.
   */
  staleGate: last<string | null>(() => null),
  /** How many times the gate blocked; dev's fix attempt number while it works on a block. */
  fixAttempts: last<number>(() => 0),
  // escalation
  escalateToHuman: last<boolean>(() => false),
  question: last<string | null>(() => null),
  askedBy: last<string | null>(() => null),
  answers: append<HumanAnswer>(),
  // custom workflows
  /** Boolean flags set by agents that declare them (`sets`); edges branch on them. */
  flags: Annotation<Record<string, boolean>>({ reducer: (old, next) => ({ ...old, ...next }), default: () => ({}) }),
  /** Outputs of custom agents, by node. */
  notes: Annotation<Record<string, AgentNote>>({ reducer: (old, next) => ({ ...old, ...next }), default: () => ({}) }),
  switchDecisions: append<SwitchDecision>(),
  /** The route the last switch node chose; its router reads it. */
  switchRoute: last<{ node: string; to: string } | null>(() => null),
  reviews: append<Review>(),
  /** How many times each node ran in this thread; bounds loops with `maxVisits`. */
  visits: Annotation<Record<string, number>>({
    reducer: (old, next) => {
      const merged = { ...old };
      for (const [node, n] of Object.entries(next)) merged[node] = (merged[node] ?? 0) + n;
      return merged;
    },
    default: () => ({}),
  }),
  // accounting
  /**
   * Steps (node runs) completed in this thread, resumes included: LangGraph's recursionLimit restarts at every
   * resume, this does not. A node cut off by a kill or a stop is not counted (it runs again).
   */
  steps: Annotation<number>({ reducer: (old, next) => old + next, default: () => 0 }),
  /**
   * Active wall time of the thread in milliseconds: the summed duration of its completed steps. Time paused for
   * a human or between resumes is not counted, nor a step that was cut off (it runs again and is counted then).
   */
  activeMs: Annotation<number>({ reducer: (old, next) => old + next, default: () => 0 }),
  usage: Annotation<Usage>({ reducer: addUsage, default: () => ZERO_USAGE }),
  usageByNode: Annotation<Record<string, Usage>>({
    reducer: (old, next) => {
      const merged = { ...old };
      for (const [node, usage] of Object.entries(next)) merged[node] = addUsage(merged[node] ?? ZERO_USAGE, usage);
      return merged;
    },
    default: () => ({}),
  }),
});

export type PipelineStateType = typeof PipelineState.State;
export type PipelineUpdate = typeof PipelineState.Update;

// Light enough for `yolo show`, which must not load LangGraph through this module.
export { fixAttemptsMade } from "./fix-attempts.js";
