import { firstFailures, type OutputParser, type TestCase, type TestStatus } from "./types.js";

const RAN = /^Ran (\d+) tests? in [\d.]+s$/m;
// `OK`, `OK (skipped=1)`, `FAILED (failures=1, errors=1, skipped=2)` right after the `Ran` line.
const VERDICT = /^(OK|FAILED)(?: \(([^)]*)\))?\s*$/m;
// `-v`: `test_add (test_math.TestMath.test_add) ... ok` (3.11+) or `test_add (test_math.TestMath) ... ok`; a docstring's
// first line may come between. A test whose subtests failed ends its line at `... ` (the failures are reported below).
const RESULT = /^(\w+) \(([\w.]+)\)(?:\n.{0,400}?)? \.\.\.(?: (ok|FAIL|ERROR|skipped|expected failure|unexpected success)\b)?.*$/gm;
// The failure sections: `FAIL: test_sub (test_math.TestMath.test_sub)`, `… (i=1)` for a subtest,
// `UNEXPECTED SUCCESS: test_us (…)` (3.11+).
const FAILURE = /^(?:FAIL|ERROR|UNEXPECTED SUCCESS): (\w+) \(([\w.]+)\)/gm;
// The runner's own count (3.11): an expected failure passes, an unexpected success fails.
const STATUS: Record<string, TestStatus> = {
  ok: "passed",
  "expected failure": "passed",
  "unexpected success": "failed",
  FAIL: "failed",
  ERROR: "failed",
  skipped: "skipped",
};
// A module that did not import is reported as a test of the loader: `test_x (unittest.loader._FailedTest.test_x)`.
const FAILED_IMPORT = "unittest.loader._FailedTest";

/**
 * `python -m unittest`: counts from `Ran N tests` and the verdict line; with `-v`, every test by its dotted id. A test
 * with a failing subtest fails once; a module that failed to import fails every test under it.
 */
export const parseUnittest: OutputParser = (text) => {
  const ran = RAN.exec(text);
  if (!ran) return null;
  const verdict = VERDICT.exec(text.slice(ran.index));
  if (!verdict) return null;
  const detail = verdict[2] ?? "";
  const number = (key: string) => Number(new RegExp(`(?:^|, )${key}=(\\d+)`).exec(detail)?.[1] ?? 0);
  const failed = number("failures") + number("errors") + number("unexpected successes");
  const notPassed = failed + number("skipped");
  const failing = new Set([...text.matchAll(FAILURE)].map((m) => testId(m[1], m[2])));
  const tests = listed(text, failing);
  // Listed, a test counts once however many of its subtests failed.
  const count = (status: TestStatus) => tests.filter((t) => t.status === status).length;
  return {
    passedCount: tests.length > 0 ? count("passed") : Math.max(0, Number(ran[1]) - notPassed),
    failedCount: tests.length > 0 ? count("failed") : failed,
    failures: firstFailures(failing),
    tests: tests.length > 0 ? tests : null,
  };
};

// A line without a verdict (a test whose subtests failed) is failed when a failure section names it, else not known.
function listed(text: string, failing: Set<string>): TestCase[] {
  const byId = new Map<string, TestCase>();
  for (const m of text.matchAll(RESULT)) {
    const module = importFailure(m[1], m[2]);
    if (module) {
      byId.set(module, { id: module, status: "failed", unit: `${module}.` });
      continue;
    }
    const id = testId(m[1], m[2]);
    const status = failing.has(id) ? "failed" : STATUS[m[3] ?? ""];
    if (status) byId.set(id, { id, status });
  }
  return [...byId.values()];
}

// The module named by a loader failure, or null for a real test.
function importFailure(method: string, where: string): string | null {
  if (!where.startsWith(FAILED_IMPORT)) return null;
  return where.length > FAILED_IMPORT.length ? where.slice(FAILED_IMPORT.length + 1) : method;
}

// Python 3.11+ prints the full dotted id in the parentheses; older versions print the class only.
function testId(method: string, where: string): string {
  if (where.startsWith(FAILED_IMPORT)) return importFailure(method, where) ?? method;
  return where.endsWith(`.${method}`) ? where : `${where}.${method}`;
}
