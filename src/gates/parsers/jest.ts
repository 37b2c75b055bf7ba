import { jestDefault } from "./jest-default.js";
import { countOf, firstFailures, type OutputParser, summedUp } from "./types.js";

// `Tests:       1 failed, 1 passed, 2 total`
const SUMMARY = /^Tests:\s+(.*\d+ total)\s*$/gm;
// `  ● sum › subtracts` heads each failure's details.
const BULLET = /^\s*● (.+?)\s*$/gm;

/** Jest's default reporter: the run's counts, and each file's outcome (jest-default.ts). */
export const parseJest: OutputParser = (text) => {
  const summaries = [...text.matchAll(SUMMARY)].map((m) => m[1]);
  if (summaries.length === 0) return null;
  return {
    passedCount: summaries.reduce((n, s) => n + countOf(s, ["passed"]), 0),
    failedCount: summaries.reduce((n, s) => n + countOf(s, ["failed"]), 0),
    failures: firstFailures([...text.matchAll(BULLET)].map((m) => m[1])),
    ...summedUp(
      jestDefault(text).files,
      summaries.reduce((n, s) => n + countOf(s, ["skipped", "todo"]), 0),
    ),
  };
};
