import type { TestCase, TestStatus } from "./parsers/types.js";

/**
 * A run's per-test statuses with whole-unit failures (a test file that did not import, a Go package that did not build
 * or panicked, a crate that did not compile: `TestCase.unit`) applied to the baseline's tests, as the runner counts
 * them: each baseline test under a failed unit that the run did not report failed with it (not "missing"), and the
 * unit's own record goes once it stands for a test. A unit that failed at the baseline and whose tests run now is
 * fixed (it passes), so it is not a target forever.
 */
export function withUnitFailures(tests: TestCase[], baseTests: TestCase[]): Map<string, TestStatus> {
  const now = new Map(tests.map((t) => [t.id, t.status]));
  for (const unit of tests) {
    if (unit.unit === undefined || unit.status !== "failed") continue;
    // A test skipped at the baseline was not going to run: it does not fail with its unit.
    const under = baseTests.filter((b) => b.status !== "skipped" && b.id !== unit.id && b.id.startsWith(unit.unit ?? "") && !now.has(b.id));
    for (const b of under) now.set(b.id, "failed");
    if (under.length > 0 && !baseTests.some((b) => b.id === unit.id)) now.delete(unit.id);
  }
  for (const unit of baseTests) {
    if (unit.unit === undefined || unit.status !== "failed" || now.has(unit.id)) continue;
    const prefix = unit.unit;
    if (tests.some((t) => t.unit === undefined && t.id.startsWith(prefix))) now.set(unit.id, "passed");
  }
  return now;
}
