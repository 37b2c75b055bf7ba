import { countOf, firstFailures, type OutputParser, type TestCase, type TestStatus } from "./types.js";

// `=============== 2 failed, 1 passed, 1 skipped, 1 error in 3.07s ================`
const SUMMARY = /^=+ (.*?) in [\d.]+s(?: \([^)]*\))? =+\s*$/gm;
// `FAILED test_math.py::test_sub - assert (3 - 1) == 1` in the short test summary.
const FAILED_LINE = /^(?:FAILED|ERROR) (\S+)/gm;
// `-rA`'s short summary: `PASSED test_math.py::test_add`, `FAILED test_math.py::test_sub - assert …`.
const SHORT = /^(PASSED|FAILED|ERROR|XFAIL|XPASS) (\S+?::\S+)(?: - .*)?$/;
// `-v`: `test_math.py::test_add PASSED                                   [ 50%]`.
const VERBOSE = /^(\S+?::\S+) (PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS)\b/;
const STATUS: Record<string, TestStatus> = {
  PASSED: "passed",
  XPASS: "passed",
  FAILED: "failed",
  ERROR: "failed",
  SKIPPED: "skipped",
  XFAIL: "skipped",
};

/** pytest's terminal reporter; errors (failing fixtures, collection errors) count as failures. */
export const parsePytest: OutputParser = (text) => {
  const summaries = [...text.matchAll(SUMMARY)].map((m) => m[1]).filter((s) => /\b(passed|failed|errors?|no tests ran)\b/.test(s));
  if (summaries.length === 0) return null;
  const summary = summaries[summaries.length - 1];
  const passedCount = countOf(summary, ["passed"]);
  const failedCount = countOf(summary, ["failed", "error", "errors"]);
  const tests = listedTests(text, passedCount, failedCount);
  return {
    passedCount,
    failedCount,
    failures: firstFailures([...text.matchAll(FAILED_LINE)].map((m) => m[1])),
    ...(tests ? { tests } : {}),
  };
};

/**
 * Every node id that `-v` or `-rA` lists with its outcome; a test listed twice (passed, then an error in its
 * teardown) is failed. Null unless the listed passes and failures add up to the summary's counts: pytest's default
 * short summary names the failures only, and a partial list must not pass for the whole run.
 */
function listedTests(text: string, passed: number, failed: number): TestCase[] | null {
  const words = new Map<string, Set<string>>();
  for (const line of text.split("\n")) {
    const short = SHORT.exec(line);
    const verbose = short ? null : VERBOSE.exec(line);
    const [id, word] = short ? [short[2], short[1]] : verbose ? [verbose[1], verbose[2]] : [null, null];
    if (id === null || word === null) continue;
    words.set(id, (words.get(id) ?? new Set()).add(word));
  }
  const all = [...words];
  const listedPassed = all.filter(([, w]) => w.has("PASSED")).length;
  const listedFailed = all.reduce((n, [, w]) => n + (w.has("FAILED") ? 1 : 0) + (w.has("ERROR") ? 1 : 0), 0);
  if (all.length === 0 || listedPassed !== passed || listedFailed !== failed) return null;
  return all.map(([id, w]) => {
    const statuses = [...w].map((word) => STATUS[word]);
    const status = statuses.includes("failed") ? "failed" : statuses.includes("passed") ? "passed" : "skipped";
    return { id, status };
  });
}
