import { countOf, firstFailures, type OutputParser, summedUp } from "./types.js";
import { vitestDefault } from "./vitest-default.js";

// `      Tests  2 failed | 2 passed | 1 skipped (5)`, as opposed to jest's `Tests:` line.
const SUMMARY = /^\s*Tests\s{2,}(.+?)\s*\(\d+\)\s*$/gm;
// ` FAIL  math.test.js > math > subtracts` (also ` FAIL  bad.test.js [ bad.test.js ]` for a file that failed to load).
const FAIL_LINE = /^\s*FAIL\s+(.+?)\s*$/gm;

/** Vitest's default reporter: the run's counts, and each file's outcome with its count (vitest-default.ts). */
export const parseVitest: OutputParser = (text) => {
  const summaries = [...text.matchAll(SUMMARY)].map((m) => m[1]).filter((s) => /\b(passed|failed)\b/.test(s));
  if (summaries.length === 0) return null;
  return {
    passedCount: summaries.reduce((n, s) => n + countOf(s, ["passed"]), 0),
    failedCount: summaries.reduce((n, s) => n + countOf(s, ["failed"]), 0),
    failures: firstFailures([...text.matchAll(FAIL_LINE)].map((m) => m[1])),
    ...summedUp(
      vitestDefault(text).files,
      summaries.reduce((n, s) => n + countOf(s, ["skipped", "todo"]), 0),
    ),
  };
};
