import type { GateResult } from "../events/schema.js";
import type { BaselineGate, GateJudgement } from "./judge.js";
import { newFindings } from "./lint-findings.js";

/** The finding of a lint red at the baseline that the change did not make worse (the run's outcome repeats it). */
export const NO_NEW_FINDINGS = "red at the baseline, no new findings";

/** New findings listed one by one in a judgement; the rest are counted. */
const LISTED_MAX = 20;

/**
 * Judges a gate that has findings rather than tests (`baseline: "findings"`: a lint, a type check) against its
 * baseline, filling `out`. Green passes. Green at the baseline and red now blocks: the change made it fail. Red at
 * both: a finding printed now that the baseline did not print blocks, and is listed; with none new it is reported and
 * does not block, because the task did not ask for the lint to be fixed. When either side's findings could not be
 * read whole (cut output, a timeout, a record older than findings), only green → red blocks, and the judgement says so.
 * This holds whether the gate is required or optional: an optional gate differs only in that a tool failing to start
 * at the baseline does not stop the run.
 */
export function judgeFindings(
  result: GateResult,
  now: string[] | null,
  base: BaselineGate | undefined,
  changeBlocks: boolean,
  out: GateJudgement,
): GateJudgement {
  out.blocking = changeBlocks;
  if (result.passed) return out;
  if (!base) {
    out.findings.push("not in the baseline, red now: blocks until it passes");
    out.blocking = true;
    return out;
  }
  const readable = base.findings && now && !result.timedOut;
  const added = base.findings && now ? newFindings(base.findings, now) : [];
  if (base.passed) {
    out.findings.push(`green at the baseline, red now: the change made ${result.name} fail`);
    out.blocking = true;
  } else if (!readable) {
    out.findings.push(`red at the baseline; ${unreadable(result, now, base)}: judged by exit code, which blocks only a gate green at the baseline`);
    return out;
  } else if (!added.length) {
    out.findings.push(NO_NEW_FINDINGS);
    return out;
  } else {
    out.findings.push(`red at the baseline, and ${added.length} new finding${added.length === 1 ? "" : "s"} since: the change made ${result.name} worse`);
    out.blocking = true;
  }
  for (const line of added.slice(0, LISTED_MAX)) out.findings.push(`new finding: ${line}`);
  if (added.length > LISTED_MAX) out.findings.push(`… and ${added.length - LISTED_MAX} more new findings (see the gate's log)`);
  return out;
}

// Why the findings of a red-at-baseline gate were not compared line by line.
function unreadable(result: GateResult, now: string[] | null, base: BaselineGate): string {
  if (base.findings === undefined) return "the baseline record is older than findings";
  if (base.findings === null) return "its output at the baseline was too long to compare";
  if (result.timedOut) return "this run timed out, so its output is partial";
  return now === null ? "this run's output was too long to compare" : "its output could not be compared";
}
