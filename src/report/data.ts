import type { GateResult, Usage } from "../events/schema.js";
import { fixAttemptsMade, type GateBaselineRef, type GateSummary, type PipelineStateType } from "../state/pipeline.js";
import type { FileStat } from "../git/repo.js";
import { outputSections } from "../roles/displays.js";
import type { OutputSection } from "../roles/types.js";
import type { ThreadRow } from "../store/thread-store.js";
import type { StoryRun } from "../state/story-runs.js";
import { orderedStoryRuns } from "./stories.js";
import type { BaselineGate } from "../gates/judge.js";
import type { FailureRuling } from "../state/types.js";
import { finalTests, type ReportTest } from "./test-states.js";

/** A price per million tokens, as configured (`model.price`). */
export interface Price {
  inputPerMillion: number;
  outputPerMillion: number;
  currency: string;
}

/** One gate run in a report: the summary kept in the thread's history, plus its output when it is still known. */
export interface ReportGate extends GateSummary {
  /** The end of the gate's output (from the last run's state, or its log file); null when gone. */
  output: string | null;
}

export interface WaitingOn {
  question: string;
  review: boolean;
  answered?: string;
}

/** Everything a report shows, gathered once; the renderers (markdown, JUnit) are pure functions of it. */
export interface ReportData {
  thread: string;
  requirement: string;
  status: string;
  exitCode: number | null;
  reason: string | null;
  model: string | null;
  createdAt: string | null;
  updatedAt: string | null;
  branch: string | null;
  startCommit: string | null;
  /**
   * What the thread waits on, when it waits: an agent's question, or a human review step. `answered`: the answer given
   * (in words) and saved, which no step has taken yet (the command that gave it was stopped): a plain resume goes on.
   */
  waitingOn: WaitingOn | null;
  /**
   * What the roles produced, each section as its module in src/roles words it (src/roles/registry.ts):
   * `judgement` (tea's verdict) follows the gates.
   */
  outputs: { work: OutputSection[]; judgement: OutputSection[] };
  /** The stories run in parallel, in story order; empty (or absent) for a thread that ran none. */
  storyRuns?: StoryRun[];
  filesChanged: string[];
  /** Lines added and removed per file since the start commit; null when git could not tell (see diffNote). */
  diffstat: FileStat[] | null;
  diffNote: string | null;
  gates: ReportGate[];
  /** The thread's gate baseline (results before any agent changed a file, or why there is no gate); absent for older threads. */
  baseline?: GateBaselineRef | null;
  /**
   * Each test's final state per gate (from the baseline record and the gate's last judged run), for gates that
   * report tests one by one; empty when none does (then reports show gates only).
   */
  tests?: Map<string, ReportTest[]>;
  /** Baseline failures a human accepted as known failures for this thread, after dev said they are unrelated. */
  acceptedFailures?: FailureRuling[];
  fixAttempts: number;
  usage: Usage;
  usageByNode: Record<string, Usage>;
  /** null when no price is configured: reports then show tokens only. */
  cost: { amount: number; currency: string; price: Price } | null;
}

export interface CollectInput {
  threadId: string;
  row: ThreadRow | null;
  values: PipelineStateType;
  waitingOn: WaitingOn | null;
  diffstat: FileStat[] | null;
  diffNote: string | null;
  price: Price | null;
  /** Reads the end of a gate's log file (relative to the project root); null when it is gone. */
  readLog: (relativePath: string) => string | null;
  /** The gates of the thread's baseline record (every test's result), when it can be read. */
  baselineGates?: BaselineGate[] | null;
}

/** Gathers a thread's report from its index row and checkpointed state. */
export function collectReport(input: CollectInput): ReportData {
  const { values: s, row } = input;
  const lastAttempt = s.lastGates.at(0)?.attempt ?? null;
  const tails = new Map<string, GateResult>(s.lastGates.map((g) => [`${g.attempt}:${g.name}`, g]));
  const gates: ReportGate[] = s.gateHistory.map((g) => {
    const live = g.attempt === lastAttempt ? tails.get(`${g.attempt}:${g.name}`) : undefined;
    const output = live?.tail ?? (g.logFile ? input.readLog(g.logFile) : null);
    return { ...g, output: output ?? null };
  });
  return {
    thread: input.threadId,
    requirement: s.requirement || row?.requirement || "",
    status: row?.status ?? "unknown",
    exitCode: row?.exitCode ?? null,
    reason: row?.reason ?? null,
    model: row?.model ?? null,
    createdAt: row?.createdAt ?? null,
    updatedAt: row?.updatedAt ?? null,
    branch: row?.branch ?? null,
    startCommit: row?.startCommit ?? null,
    waitingOn: input.waitingOn,
    outputs: outputSections(s),
    storyRuns: orderedStoryRuns(s.storyRuns, s.stories),
    filesChanged: s.filesChanged,
    diffstat: input.diffstat,
    diffNote: input.diffNote,
    gates,
    baseline: s.gateBaseline ?? null,
    tests: finalTests(input.baselineGates ?? [], s.gateHistory),
    acceptedFailures: (s.failureRulings ?? []).filter((r) => r.accepted),
    fixAttempts: fixAttemptsMade(s),
    usage: s.usage,
    usageByNode: s.usageByNode,
    cost: input.price ? { amount: costOf(s.usage, input.price), currency: input.price.currency, price: input.price } : null,
  };
}

/** Cost of some token usage at a price per million tokens. */
export function costOf(usage: Pick<Usage, "promptTokens" | "completionTokens">, price: Omit<Price, "currency">): number {
  return (usage.promptTokens * price.inputPerMillion + usage.completionTokens * price.outputPerMillion) / 1_000_000;
}
