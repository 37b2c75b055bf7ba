import type { GateConfig } from "../config/schema.js";
import type { GateResult } from "../events/schema.js";
import type { BaselineRecord } from "../gates/baseline-record.js";
import type { RunFacts } from "./run-events.js";

/**
 * What the task run's own gates vouch for on the judged tree. The judged tree differs from the agents' final tree only
 * in the hidden test files put back when every change of the agents was taken over; a test file that reaches none of
 * those gives there what the run's last gate run gave it, if that run judged exactly the agents' final tree. The
 * facts come from yolo alone: the run's events (its `--json` output, in the project checkout the sandbox shows
 * empty) and its baseline record (in the task's `.yolo/`, read-only to sandboxed commands and refused by the file
 * tools). Without the sandbox the agents could write both, so nothing is reused.
 */
export type GateReuse = { ok: true; passing: Set<string> } | { ok: false; reason: string };

export interface ReuseInput {
  /** The task's gates (those the judge runs). */
  gates: GateConfig[];
  facts: RunFacts;
  /** The eval's own sandbox kind (the task run's host setting). */
  sandbox: string;
  /** The agents' worktree's tree now (work-tree-hash.ts), or null when it could not be taken. */
  treeNow: string | null;
  /** The run's baseline record, or null when it could not be read. */
  baseline: BaselineRecord | null;
  /** What building the judged tree left out of the agents' change (judge-tree.ts): nothing, for the trees to match. */
  leftOut: string[];
}

/**
 * The tests the run's last gate runs show passing on the agents' final tree: every test passing at the run's baseline
 * (by its record), when each required gate's last run was the whole suite on that very tree (its `treeBefore` and
 * `treeAfter` both the tree now), ran the task's own command, read tests one by one, and found no failure, regression
 * or missing test. Anything else: why not.
 */
export function gateReuse(input: ReuseInput): GateReuse {
  const no = (reason: string): GateReuse => ({ ok: false, reason });
  if (input.sandbox !== "bwrap" || !input.facts.sandboxes.length || input.facts.sandboxes.some((s) => s !== "bwrap"))
    return no("the run was not sandboxed: its agents could have written its events and records");
  if (input.leftOut.length) return no(`the judged tree is not the agents' tree: ${input.leftOut[0]} was not taken over`);
  if (!input.treeNow) return no("the agents' tree could not be hashed");
  if (!input.baseline) return no("the run's baseline record could not be read");
  const passing = new Set<string>();
  for (const gate of input.gates.filter((g) => g.required)) {
    const last = input.facts.lastGates.get(gate.name);
    const why = last ? unclean(last, gate, input.treeNow) : "no gate result after the baseline";
    if (why) return no(`gate ${gate.name}'s last run cannot stand for the judged tree: ${why}`);
    const base = input.baseline.gates.find((g) => g.name === gate.name);
    if (!base?.tests) return no(`the baseline record lists no test of gate ${gate.name}`);
    for (const t of base.tests) if (t.status === "passed") passing.add(`${gate.name}: ${t.id}`);
  }
  return { ok: true, passing };
}

// Why a gate's last result does not show every baseline test passing on the tree `tree`, or null when it does.
function unclean(last: GateResult, gate: GateConfig, tree: string): string | null {
  if (last.command !== gate.command) return `it ran \`${last.command}\`, not the task's \`${gate.command}\``;
  if (last.scope && last.scope.kind !== "all") return "it ran part of the suite";
  if (last.treeAfter !== tree || last.treeBefore !== tree) return "it ran on another tree than the agents' final one";
  if (!last.passed || last.blocking || last.timedOut || last.failedCount !== 0 || last.failures.length) return "it did not pass";
  if (!last.reading || last.reading === "exit-code" || !last.tests) return "it listed no tests one by one";
  const lists = [last.regressions, last.missing, last.preExisting, last.newFailures, last.gateChange];
  if (lists.some((l) => l?.length)) return "it has regressions, missing tests, failures or a gate change";
  if (last.baselineTestsRun) return "its baseline tests ran in a copy apart";
  return null;
}
