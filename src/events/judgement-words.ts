// The words for a `gate.result` event's judgement, beside the event contract: renderers read only src/events, and
// show, reports and dev's fix prompt word a gate the same way.

/** The judgement fields of a gate result, as renderers, `yolo show` and reports read them. */
export interface JudgedGate {
  passed: boolean;
  required: boolean;
  baseline?: boolean;
  blocking?: boolean;
  regressions?: string[];
  preExisting?: string[];
  preExistingAllowed?: boolean;
  fixed?: string[];
  newFailures?: string[];
  newPassing?: string[];
  knownFailures?: Array<{ id: string; declaredIn: string }>;
  missing?: string[];
  findings?: string[];
  gateChange?: string[];
  gateChangeApproved?: boolean;
  /** The run failed because of its environment, not the code (a run ended there: the agents were not sent it). */
  environment?: { kind: keyof typeof ENVIRONMENT_WORDS };
}

/** What broke a gate's environment, in a few words: "failed because of its environment (…)". */
export const ENVIRONMENT_WORDS = {
  "read-only": "a read-only file system",
  "missing-toolchain": "a missing toolchain",
  permission: "a permission refused",
  disk: "a full disk",
  network: "no network inside the sandbox",
  "not-installed": "the project is not installed",
} as const;

const names = (ids: string[], max: number) => `${ids.slice(0, max).join("; ")}${ids.length > max ? `; … (${ids.length} in all)` : ""}`;

/**
 * The words for what changed since the baseline, one per kind, shared by every output (live view, plain lines,
 * `show`, reports, dev's fix prompt) so a test reads the same everywhere.
 */
export const CHANGE_WORDS = {
  regressed: "regressed (passed at the baseline)",
  stillFailing: "still failing (failing before the run)",
  preExisting: 'pre-existing failures (baseline: "report", not blocking)',
  newFailing: "new, failing",
  newPassing: "new, passing",
  fixed: "fixed",
  known: "known failure",
  notRun: "not run now (skipped, todo or gone)",
} as const;

/** `a (declared in yolo.config.ts); b (declared in --known-failure)`: known failures with where a person declared them. */
export function knownWords(known: Array<{ id: string; declaredIn: string }>, max: number): string {
  return names(
    known.map((k) => `${k.id} (declared in ${k.declaredIn})`),
    max,
  );
}

/**
 * What yolo's comparison with the baseline says about a gate run, one note per line: the gate change refused or
 * approved, then per test what changed since the baseline (regressed, still failing, new, known, fixed), findings.
 * Empty for a run without a baseline.
 */
export function judgementNotes(g: JudgedGate, max = 5): string[] {
  const notes: string[] = [];
  if (g.gateChange?.length) notes.push(`${g.gateChangeApproved ? "gate change approved by a human" : "gate change refused"}: ${names(g.gateChange, max)}`);
  if (g.regressions?.length) notes.push(`${CHANGE_WORDS.regressed}: ${names(g.regressions, max)}`);
  if (g.preExisting?.length) notes.push(`${g.preExistingAllowed ? CHANGE_WORDS.preExisting : CHANGE_WORDS.stillFailing}: ${names(g.preExisting, max)}`);
  if (g.newFailures?.length) notes.push(`${CHANGE_WORDS.newFailing}: ${names(g.newFailures, max)}`);
  if (g.knownFailures?.length) notes.push(`${CHANGE_WORDS.known}: ${knownWords(g.knownFailures, max)}`);
  if (g.fixed?.length) notes.push(`${CHANGE_WORDS.fixed}: ${names(g.fixed, max)}`);
  if (g.newPassing?.length) notes.push(`${CHANGE_WORDS.newPassing}: ${names(g.newPassing, max)}`);
  if (g.missing?.length) notes.push(`${CHANGE_WORDS.notRun}: ${names(g.missing, max)}`);
  for (const f of g.findings ?? []) notes.push(f);
  return notes;
}

/**
 * Whether a gate result blocks: yolo's judgement against the baseline (`blocking`) when there is one, else a red
 * required gate. Here beside the contract so renderers read a gate as the verdict (gates/verdict.ts) does.
 */
export function gateBlocks(g: Pick<JudgedGate, "required" | "passed" | "blocking">): boolean {
  return g.blocking ?? (g.required && !g.passed);
}

/** The verdict word of a judged gate: PASS, FAIL, BLOCKED (green but blocked by yolo), or a red gate that does not block and why. */
export function judgedVerdict(g: JudgedGate): string {
  const verdict = verdictWord(g);
  return g.environment ? `${verdict} — the environment's failure: ${ENVIRONMENT_WORDS[g.environment.kind]}` : verdict;
}

function verdictWord(g: JudgedGate): string {
  if (g.baseline) return g.passed ? "PASS (baseline)" : "FAIL (baseline)";
  if (g.passed) return g.blocking ? "BLOCKED" : "PASS";
  if (g.blocking === false && g.required) {
    if (g.preExistingAllowed && g.preExisting?.length) return "FAIL, pre-existing only (not blocking)";
    return g.knownFailures?.length ? "FAIL, known failures only (not blocking)" : "FAIL (not blocking)";
  }
  // An optional gate judged by its findings blocks on a new one.
  return g.required || g.blocking ? "FAIL" : "FAIL (not required)";
}

/** How a gate run's results were read (`GateResult.reading`), in the words show, reports and doctor use. */
export const READING_WORDS = { structured: "structured report", parsed: "parsed output", "exit-code": "exit code only" } as const;

/** "results: parsed output", or "" when the run (an older thread's) did not say. */
export function readingWords(reading: keyof typeof READING_WORDS | undefined): string {
  return reading ? `results: ${READING_WORDS[reading]}` : "";
}
