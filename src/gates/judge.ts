import type { GateResult } from "../events/schema.js";
import type { TestCase } from "./parsers/types.js";

/** One gate as the baseline ran it, before any agent changed a file. */
export interface BaselineGate {
  name: string;
  passed: boolean;
  passedCount: number | null;
  failedCount: number | null;
  /** Every test the runner reported, or null when it gave counts only. */
  tests: TestCase[] | null;
}

/** How a later run of a gate compares with its baseline: the fields `gate.result` gains, and whether it blocks. */
export interface GateJudgement {
  regressions: string[];
  preExisting: string[];
  newFailures: string[];
  missing: string[];
  findings: string[];
  gateChange: string[];
  blocking: boolean;
}

export interface JudgeOptions {
  /** `baseline: "strict"`: failures already there at the baseline block too. */
  strict: boolean;
  /** What an agent changed in the gate's definition since the baseline (or since the last approval). */
  changes: string[];
  /** A human approved `changes`: they do not block, and tests that went missing with them are a finding only. */
  approved: boolean;
  /**
   * A narrowed run (only the workspaces a change touches): whether a baseline test is among those it runs. Tests
   * outside it are not missing (the baseline ran the whole suite); absent, every baseline test is in scope.
   */
  inScope?: (id: string) => boolean;
}

const LIST_MAX = 50;
const clipList = (ids: string[]) => (ids.length > LIST_MAX ? [...ids.slice(0, LIST_MAX), `… and ${ids.length - LIST_MAX} more`] : ids);

/**
 * Judges a gate run against its baseline; yolo decides, not the model. A test that passed at the baseline and
 * now fails or is missing is a regression; a failing test that was not failing at the baseline is a new failure;
 * both block. Failures already there at the baseline are pre-existing and block only when strict. An unapproved
 * change to what defines the gate blocks whatever the tests say. Without per-test results on both sides the exit
 * code decides, as it did before baselines.
 */
export function judgeGate(result: GateResult, tests: TestCase[] | null, base: BaselineGate | undefined, opts: JudgeOptions): GateJudgement {
  const changeBlocks = opts.changes.length > 0 && !opts.approved;
  const out: GateJudgement = { regressions: [], preExisting: [], newFailures: [], missing: [], findings: [], gateChange: opts.changes, blocking: false };
  const nowTotal = tests ? tests.length : total(result.passedCount, result.failedCount);
  const inScope = opts.inScope ?? (() => true);
  // A narrowed run is compared with the baseline's tests in its scope; with counts only, it cannot be compared.
  const baseTotal = base?.tests ? base.tests.filter((t) => inScope(t.id)).length : base && !opts.inScope ? total(base.passedCount, base.failedCount) : null;
  if (baseTotal !== null && nowTotal !== null && nowTotal < baseTotal) out.findings.push(`fewer tests than the baseline: ${nowTotal}, was ${baseTotal}`);
  const red = !result.passed;
  if (!base?.tests) {
    out.blocking = result.required && (red || changeBlocks);
    return out;
  }
  const before = new Map(base.tests.map((t) => [t.id, t.status]));
  const now = new Map((tests ?? []).map((t) => [t.id, t.status]));
  for (const [id, status] of before) {
    if (status !== "passed") continue;
    const after = now.get(id);
    if (after === undefined) {
      if (inScope(id)) out.missing.push(id);
    } else if (after === "failed") out.regressions.push(id);
  }
  for (const [id, status] of now) {
    if (status !== "failed" || before.get(id) === "passed") continue;
    if (before.get(id) === "failed") out.preExisting.push(id);
    else out.newFailures.push(id);
  }
  if (opts.approved && out.missing.length) out.findings.push(`tests gone with the approved gate change: ${out.missing.length}`);
  else out.regressions.push(...out.missing);
  const failingNow = [...now.values()].filter((s) => s === "failed").length;
  // A red exit is explained only by failures that were there before; a crash or a timeout with none listed is not.
  const explained = !red || (!result.timedOut && failingNow > 0 && failingNow === out.preExisting.length);
  out.blocking =
    result.required && (changeBlocks || out.regressions.length > 0 || out.newFailures.length > 0 || (opts.strict && out.preExisting.length > 0) || !explained);
  out.regressions = clipList(out.regressions);
  out.preExisting = clipList(out.preExisting);
  out.newFailures = clipList(out.newFailures);
  out.missing = clipList(out.missing);
  return out;
}

function total(passed: number | null, failed: number | null): number | null {
  return passed === null && failed === null ? null : (passed ?? 0) + (failed ?? 0);
}

/** Whether a gate result blocks: yolo's judgement against the baseline when there is one, else a red required gate. */
export function gateBlocks(g: Pick<GateResult, "required" | "passed"> & { blocking?: boolean }): boolean {
  return g.blocking ?? (g.required && !g.passed);
}
