/** The judgement fields of a gate result, as renderers, `yolo show` and reports read them. */
export interface JudgedGate {
  passed: boolean;
  required: boolean;
  baseline?: boolean;
  blocking?: boolean;
  regressions?: string[];
  preExisting?: string[];
  newFailures?: string[];
  missing?: string[];
  findings?: string[];
  gateChange?: string[];
  gateChangeApproved?: boolean;
}

const names = (ids: string[], max: number) => `${ids.slice(0, max).join("; ")}${ids.length > max ? `; … (${ids.length} in all)` : ""}`;

/**
 * What yolo's comparison with the baseline says about a gate run, one note per line: the gate change refused or
 * approved, regressions, new failures, pre-existing failures, findings. Empty for a run without a baseline.
 */
export function judgementNotes(g: JudgedGate, max = 5): string[] {
  const notes: string[] = [];
  if (g.gateChange?.length) notes.push(`${g.gateChangeApproved ? "gate change approved by a human" : "gate change refused"}: ${names(g.gateChange, max)}`);
  if (g.regressions?.length) notes.push(`regressed (passed at the baseline): ${names(g.regressions, max)}`);
  if (g.newFailures?.length) notes.push(`new failures: ${names(g.newFailures, max)}`);
  if (g.preExisting?.length) notes.push(`already failing at the baseline${g.blocking ? " (a strict gate: they block)" : ""}: ${names(g.preExisting, max)}`);
  for (const f of g.findings ?? []) notes.push(f);
  return notes;
}

/** The verdict word of a judged gate: PASS, FAIL, BLOCKED (green but blocked by yolo), or FAIL, pre-existing only. */
export function judgedVerdict(g: JudgedGate): string {
  if (g.baseline) return g.passed ? "PASS (baseline)" : "FAIL (baseline)";
  if (g.passed) return g.blocking ? "BLOCKED" : "PASS";
  if (g.blocking === false && g.required) return "FAIL, pre-existing only (not blocking)";
  return g.required ? "FAIL" : "FAIL (not required)";
}
