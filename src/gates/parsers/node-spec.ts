import { firstFailures, sumMatches, type OutputParser } from "./types.js";

const PASS = /^ℹ pass (\d+)\s*$/gm;
const FAIL = /^ℹ fail (\d+)\s*$/gm;
const CANCELLED = /^ℹ cancelled (\d+)\s*$/gm;
const FAILING_HEADER = "✖ failing tests:";
// `✖ subtracts numbers (6.665456ms)`; a failing `# TODO` test is listed too but does not count.
const FAILED_TEST = /^\s*✖ (.+?)(?: \([\d.]+m?s\))?(\s+#\s*(?:TODO|SKIP)\b.*)?\s*$/i;

/** `node --test` with the spec reporter (the default on a terminal, and in Node ≥ 23 everywhere). */
export const parseNodeSpec: OutputParser = (text) => {
  const passed = sumMatches(text, PASS);
  const failed = sumMatches(text, FAIL);
  if (passed === null && failed === null) return null;
  return {
    passedCount: passed,
    failedCount: failed === null ? null : failed + (sumMatches(text, CANCELLED) ?? 0),
    failures: firstFailures(failedNames(text)),
  };
};

// The closing "failing tests" section lists only the failing tests themselves; without it, every ✖ line
// (suites included) is the best there is.
function failedNames(text: string): string[] {
  const lines = text.split("\n");
  const header = lines.findIndex((l) => l.trim() === FAILING_HEADER);
  const region = header === -1 ? lines : lines.slice(header + 1);
  return region.flatMap((line) => {
    if (line.trim() === FAILING_HEADER) return [];
    const match = FAILED_TEST.exec(line);
    return match && !match[2] ? [match[1]] : [];
  });
}
