import { countOf, firstFailures, type OutputParser } from "./types.js";

// `=============== 2 failed, 1 passed, 1 skipped, 1 error in 3.07s ================`
const SUMMARY = /^=+ (.*?) in [\d.]+s(?: \([^)]*\))? =+\s*$/gm;
// `FAILED test_math.py::test_sub - assert (3 - 1) == 1` in the short test summary.
const FAILED_LINE = /^(?:FAILED|ERROR) (\S+)/gm;

/** pytest's terminal reporter; errors (failing fixtures, collection errors) count as failures. */
export const parsePytest: OutputParser = (text) => {
  const summaries = [...text.matchAll(SUMMARY)]
    .map((m) => m[1])
    .filter((s) => /\b(passed|failed|errors?|no tests ran)\b/.test(s));
  if (summaries.length === 0) return null;
  const summary = summaries[summaries.length - 1];
  return {
    passedCount: countOf(summary, ["passed"]),
    failedCount: countOf(summary, ["failed", "error", "errors"]),
    failures: firstFailures([...text.matchAll(FAILED_LINE)].map((m) => m[1])),
  };
};
