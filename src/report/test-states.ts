import type { BaselineGate } from "../gates/judge.js";
import type { GateSummary } from "../state/types.js";

/** What became of one test by the thread's last gate run, in the words every output uses. */
export type TestState = "passed" | "fixed" | "regressed" | "still failing" | "new, failing" | "new, passing" | "known failure" | "not run";

/** One test of a gate in a report: its final state, and for a known failure where it was declared. */
export interface ReportTest {
  gate: string;
  id: string;
  state: TestState;
  /** A known failure's declaration; "not run now" for a regression or target that was skipped or gone. */
  detail?: string;
}

// The clipped tail of a long list ("… and 12 more") names no test.
const named = (ids: string[] | undefined) => new Set((ids ?? []).filter((id) => !id.startsWith("… and ")));

/**
 * Each test's final state, per gate: the baseline's tests (from its record) moved by what the gate's last judged run
 * said changed (regressed, still failing, fixed, known, not run), and the tests new since the baseline. Null for a
 * gate whose baseline has no per-test results, or that has not been judged since; then only the gate is shown.
 */
export function finalTests(baseline: readonly BaselineGate[], history: readonly GateSummary[]): Map<string, ReportTest[]> {
  const out = new Map<string, ReportTest[]>();
  for (const b of baseline) {
    const last = history.filter((g) => g.name === b.name && !g.baseline).at(-1);
    if (!b.tests || !last || last.blocking === undefined) continue;
    out.set(b.name, gateTests(b, last));
  }
  return out;
}

function gateTests(b: BaselineGate, last: GateSummary): ReportTest[] {
  const [regressed, still, fixed, missing] = [last.regressions, last.preExisting, last.fixed, last.missing].map(named);
  const known = new Map((last.knownFailures ?? []).map((k) => [k.id, k.declaredIn]));
  const tests: ReportTest[] = [];
  const seen = new Set<string>();
  const add = (id: string, state: TestState, detail?: string) => {
    seen.add(id);
    tests.push({ gate: b.name, id, state, ...(detail ? { detail } : {}) });
  };
  for (const t of b.tests ?? []) {
    if (t.status !== "passed" && t.status !== "failed") continue;
    const notRun = missing.has(t.id) ? "not run now" : undefined;
    if (known.has(t.id)) add(t.id, "known failure", known.get(t.id));
    else if (regressed.has(t.id)) add(t.id, "regressed", notRun);
    else if (still.has(t.id)) add(t.id, "still failing", notRun);
    else if (fixed.has(t.id)) add(t.id, "fixed");
    else if (notRun) add(t.id, "not run");
    else add(t.id, t.status === "passed" ? "passed" : "still failing");
  }
  for (const id of named(last.newFailures)) if (!seen.has(id)) add(id, "new, failing");
  for (const id of named(last.newPassing)) if (!seen.has(id)) add(id, "new, passing");
  for (const [id, where] of known) if (!seen.has(id)) add(id, "known failure", where);
  return tests;
}

/** Whether a test's final state is a failure a CI viewer must show red: a regression, a target still failing, a new failure. */
export function failsFinally(state: TestState): boolean {
  return state === "regressed" || state === "still failing" || state === "new, failing";
}
