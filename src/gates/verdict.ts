import { gateBlocks } from "../events/judgement-words.js";
import type { GateResult } from "../events/schema.js";
import type { FailureRuling, GateApproval, GateSummary, JudgedTree, Verdict } from "../state/types.js";

/**
 * One gate check as a node ran it: each gate's result, already judged against the baseline with the thread's known
 * failures (judge.ts), and what a human said during the check. One record, so nothing that copies or rebuilds the
 * results can drop the human's words on the way to the verdict.
 */
export interface GateCheck {
  results: GateResult[];
  /** The gate change a human approved in this check, or null. */
  approval: GateApproval | null;
  /** A human's rulings in this check on claims that failing tests are unrelated (none asked: empty). */
  rulings: FailureRuling[];
}

/** The thread's verdict fields before a node judges: whether the gate blocks and how many blocks were counted. */
export interface VerdictBefore {
  gateBlocked: boolean;
  fixAttempts: number;
}

/** The state a verdict writes: the block and its count, and with a fresh check its results and the human's words. */
export interface GateVerdictUpdate extends VerdictBefore {
  lastGates?: GateResult[];
  gateHistory?: GateSummary[];
  judgedTree?: JudgedTree | null;
  staleGate?: null;
  gateApproval?: GateApproval;
  failureRulings?: FailureRuling[];
}

/**
 * The one gate verdict. With `check` (gates this node ran now) the gates block when any judged result blocks; without
 * (a judge reading results an earlier gate node judged) the block stands as that node left it. A judge's FAIL blocks
 * whatever the gates say. Each block counts one fix attempt, once: edges conditioned on `fix_attempts_remain` stop
 * looping after `maxFixAttempts` of them.
 */
export function gateVerdict(input: { node: string; check: GateCheck | null; before: VerdictBefore; judge?: Verdict | null }): GateVerdictUpdate {
  const { node, check, before } = input;
  const gatesBlock = check ? check.results.some(gateBlocks) : before.gateBlocked;
  const blocked = gatesBlock || input.judge === "FAIL";
  // An earlier gate node counted its own block; only a new block (fresh gates, or a FAIL on green) counts again.
  const counted = check ? false : before.gateBlocked;
  const verdict = { gateBlocked: blocked, fixAttempts: blocked && !counted ? before.fixAttempts + 1 : before.fixAttempts };
  return check ? { ...checkRecord(node, check), ...verdict } : verdict;
}

// What a fresh check leaves in state: its results (with output for the fix prompt), their history, the tree they
// judged, and the human's approval and rulings, checkpointed with the verdict they shaped.
function checkRecord(node: string, check: GateCheck): Omit<GateVerdictUpdate, keyof VerdictBefore> {
  const tree = check.results.at(-1)?.treeAfter;
  return {
    judgedTree: tree ? { node, tree } : null,
    staleGate: null,
    lastGates: check.results,
    gateHistory: check.results.map(({ tail: _tail, targetOutput: _output, ...summary }) => summary),
    ...humanWords(check),
  };
}

/** What a human said in a check (an approved gate change, rulings), as state: kept whether or not a verdict follows. */
export function humanWords(check: GateCheck): Pick<GateVerdictUpdate, "gateApproval" | "failureRulings"> {
  return {
    ...(check.approval ? { gateApproval: check.approval } : {}),
    ...(check.rulings.length ? { failureRulings: check.rulings } : {}),
  };
}

/** The gates that block a thread's last check: yolo's judgement against the baseline, or a red required gate without one. */
export function blockingGates(gates: readonly GateResult[]): GateResult[] {
  return gates.filter(gateBlocks);
}

/**
 * Whether a blocking gate blocks only on tests that were failing at the baseline (targets still failing): nothing
 * the change broke. A red exit with no failing test named (a crash, a timeout) is not explained by the targets.
 */
export function onlyTargetsBlock(g: GateResult): boolean {
  const broke = (g.regressions?.length ?? 0) + (g.newFailures?.length ?? 0) + (g.gateChange?.length && !g.gateChangeApproved ? 1 : 0);
  const failingNow = g.failedCount ?? g.failures.length;
  return broke === 0 && !g.preExistingAllowed && (g.preExisting?.length ?? 0) > 0 && !g.timedOut && (g.passed || failingNow > 0);
}

/** How the last verdict ends a finished thread: whether it passed, the gates that block, and whether only targets do. */
export function endVerdict(state: { gateBlocked: boolean; lastGates: readonly GateResult[] }) {
  const blocking = blockingGates(state.lastGates);
  return { passed: !state.gateBlocked, blocking, onlyTargets: blocking.length > 0 && blocking.every(onlyTargetsBlock) };
}
