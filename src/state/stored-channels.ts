import { ZERO_USAGE } from "../events/usage.js";

/**
 * The pipeline state's channels as a checkpoint reader needs them, without LangGraph: each key in the order the
 * state declares it, with its default (what LangGraph shows for a key a checkpoint does not hold). `delta` keys are
 * LangGraph DeltaChannels: a checkpoint stores their new writes, not the value, and a reader replays them.
 * tests/unit/state/stored-channels.test.ts checks this table against `PipelineState` itself.
 */
export const STORED_CHANNELS: Readonly<Record<string, { kind: "value" | "delta"; initial: () => unknown }>> = Object.freeze({
  requirement: value(() => ""),
  mode: value(() => "run"),
  agentId: value(() => null),
  conversation: value(() => []),
  requirements: value(() => null),
  acceptanceCriteria: value(() => []),
  stories: value(() => []),
  needsArchitecture: value(() => false),
  storyRuns: value(() => ({})),
  storiesActive: value(() => false),
  storyParallel: value(() => null),
  storyWallMs: value(() => 0),
  decisions: value(() => []),
  devSummary: value(() => null),
  filesChanged: value(() => []),
  verdict: value(() => null),
  verdictBy: value(() => null),
  findings: value(() => []),
  lastGates: value(() => []),
  gateHistory: { kind: "delta", initial: () => [] },
  gateBlocked: value(() => false),
  gateBaseline: value(() => null),
  gateApproval: value(() => null),
  failureClaims: value(() => []),
  failureClaimsBy: value(() => null),
  failureRulings: value(() => []),
  judgedTree: value(() => null),
  staleGate: value(() => null),
  fixAttempts: value(() => 0),
  escalateToHuman: value(() => false),
  question: value(() => null),
  askedBy: value(() => null),
  answers: value(() => []),
  flags: value(() => ({})),
  notes: value(() => ({})),
  switchDecisions: value(() => []),
  switchRoute: value(() => null),
  reviews: value(() => []),
  visits: value(() => ({})),
  steps: value(() => 0),
  activeMs: value(() => 0),
  usage: value(() => ZERO_USAGE),
  usageByNode: value(() => ({})),
});

/** The reducer of the delta channels (gateHistory): each write is a list of entries appended in order. */
export function replayDelta(base: unknown[], writes: unknown[][]): unknown[] {
  return writes.reduce((all, w) => all.concat(w), base);
}

function value(initial: () => unknown) {
  return { kind: "value" as const, initial };
}
