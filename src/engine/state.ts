import { Annotation, DeltaChannel } from "@langchain/langgraph";
import type { GateResult, Usage } from "../events/schema.js";
import { addUsage, ZERO_USAGE } from "../events/usage.js";

export interface Story {
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
/** A gate run as kept in history: the verdict without the output (the full log stays on disk). */
export type GateSummary = Omit<GateResult, "tail">;
export type Verdict = "PASS" | "CONCERNS" | "FAIL";


const last = <T>(initial: () => T) => Annotation<T>({ reducer: (_old: T, next: T) => next, default: initial });
const append = <T>() => Annotation<T[]>({ reducer: (old: T[], next: T[]) => old.concat(next), default: () => [] });

/**
 * The pipeline's state. Every flag a router reads is declared here (LangGraph silently drops undeclared keys),
 * and what accumulates has a reducer. Large things (transcripts, full test output) live on disk under
 * `.yolo/threads/<id>/`, so a checkpoint stays small and grows linearly with the run.
 */
export const PipelineState = Annotation.Root({
  requirement: last<string>(() => ""),
  // analyst
  requirements: last<string | null>(() => null),
  acceptanceCriteria: last<string[]>(() => []),
  // pm
  stories: last<Story[]>(() => []),
  needsArchitecture: last<boolean>(() => false),
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
  /** How many times the gate blocked; dev's fix attempt number while it works on a block. */
  fixAttempts: last<number>(() => 0),
  // escalation
  escalateToHuman: last<boolean>(() => false),
  question: last<string | null>(() => null),
  askedBy: last<string | null>(() => null),
  answers: append<HumanAnswer>(),
  // accounting
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
