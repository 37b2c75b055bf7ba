import type { GateResult } from "../events/schema.js";
import type { GateRun } from "./run-gates.js";
import type { FileOutcome, TestCase } from "./parsers/types.js";

/**
 * One gate's verdict from its two runs: `normal` in the project as the agent left it, `clean` in a copy holding the
 * baseline's test files (src/git/clean-copy.ts). The baseline's tests are taken from the clean run only — a result the
 * agent's files produced for them in the normal run does not count, except that a failure there still fails — and the
 * agent's new tests from the normal run. Both runs must pass for the gate to pass.
 */
export function mergeCleanRun(normal: GateRun, clean: GateRun, baselineIds: Set<string> | null): GateRun {
  const tests = baselineIds && clean.tests ? mergedTests(normal.tests ?? [], clean.tests, baselineIds, normal.files ?? []) : normal.tests;
  const cleanRed = !clean.result.passed;
  const result: GateResult = {
    ...normal.result,
    passed: normal.result.passed && clean.result.passed,
    exitCode: cleanRed ? clean.result.exitCode : normal.result.exitCode,
    timedOut: normal.result.timedOut || clean.result.timedOut,
    durationMs: normal.result.durationMs + clean.result.durationMs,
    failures: [...new Set([...clean.result.failures, ...normal.result.failures])].slice(0, 10),
    // The run that failed is the one whose output explains it.
    tail: cleanRed ? clean.result.tail : normal.result.tail,
    logFile: cleanRed ? clean.result.logFile : normal.result.logFile,
    baselineTestsRun: "clean-copy",
  };
  if (tests) {
    result.tests = tests.length;
    result.passedCount = tests.filter((t) => t.status === "passed").length;
    result.failedCount = tests.filter((t) => t.status === "failed").length;
  } else if (cleanRed) {
    result.passedCount = clean.result.passedCount;
    result.failedCount = clean.result.failedCount;
  }
  // The baseline's tests were judged in the clean run: its files and counts are the evidence for those it summed up.
  const evidence = { files: clean.files ?? normal.files, skippedCount: clean.skippedCount ?? normal.skippedCount, runner: normal.runner ?? clean.runner };
  return { result, tests, outputs: [...(clean.outputs ?? []), ...(normal.outputs ?? [])], ...defined(evidence) };
}

function defined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

// A baseline test counts as the clean run reported it, and only where the normal run reported it too (a test the agent
// removed from its file is missing) and did not fail it; the others as the normal run reported them.
function mergedTests(normal: TestCase[], clean: TestCase[], baselineIds: Set<string>, normalFiles: FileOutcome[]): TestCase[] {
  const normalStatus = new Map(normal.map((t) => [t.id, t.status]));
  // A file the normal run summed up green (`✓ file (34 tests)`) ran its tests there too, unlisted.
  const summedGreen = (id: string) => normalFiles.some((f) => f.status === "passed" && id.startsWith(`${f.file} > `));
  const fromClean = clean
    .filter((t) => baselineIds.has(t.id) && (normalStatus.has(t.id) || summedGreen(t.id)))
    .map((t) => (normalStatus.get(t.id) === "failed" ? { ...t, status: "failed" as const } : t));
  const fromNormal = normal.filter((t) => !baselineIds.has(t.id));
  return [...fromClean, ...fromNormal];
}
