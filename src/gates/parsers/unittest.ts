import { firstFailures, type OutputParser, type TestCase, type TestStatus } from "./types.js";

const RAN = /^Ran (\d+) tests? in [\d.]+s$/m;
// `OK`, `OK (skipped=1)`, `FAILED (failures=1, errors=1, skipped=2)` right after the `Ran` line.
const VERDICT = /^(OK|FAILED)(?: \(([^)]*)\))?\s*$/m;
// `-v`: `test_add (test_math.TestMath.test_add) ... ok` (3.11+) or `test_add (test_math.TestMath) ... ok`.
const RESULT = /^(\w+) \(([\w.]+)\)(?:\n.*?)? \.\.\. (ok|FAIL|ERROR|skipped|expected failure|unexpected success)/gm;
// The failure sections: `FAIL: test_sub (test_math.TestMath.test_sub)`.
const FAILURE = /^(?:FAIL|ERROR): (\w+) \(([\w.]+)\)/gm;
const STATUS: Record<string, TestStatus> = {
  ok: "passed",
  "unexpected success": "failed",
  FAIL: "failed",
  ERROR: "failed",
  skipped: "skipped",
  "expected failure": "skipped",
};

/** `python -m unittest`: counts from `Ran N tests` and the verdict line; with `-v`, every test by its dotted id. */
export const parseUnittest: OutputParser = (text) => {
  const ran = RAN.exec(text);
  if (!ran) return null;
  const verdict = VERDICT.exec(text.slice(ran.index));
  if (!verdict) return null;
  const detail = verdict[2] ?? "";
  const number = (key: string) => Number(new RegExp(`(?:^|, )${key}=(\\d+)`).exec(detail)?.[1] ?? 0);
  const failed = number("failures") + number("errors") + number("unexpected successes");
  const notPassed = failed + number("skipped") + number("expected failures");
  const tests: TestCase[] = [...text.matchAll(RESULT)].map((m) => ({ id: testId(m[1], m[2]), status: STATUS[m[3]] }));
  return {
    passedCount: Math.max(0, Number(ran[1]) - notPassed),
    failedCount: failed,
    failures: firstFailures([...text.matchAll(FAILURE)].map((m) => testId(m[1], m[2]))),
    tests: tests.length > 0 ? tests : null,
  };
};

// Python 3.11+ prints the full dotted id in the parentheses; older versions print the class only.
function testId(method: string, where: string): string {
  return where.endsWith(`.${method}`) ? where : `${where}.${method}`;
}
