import { firstFailures, type FileOutcome, type OutputParser, type TestCase } from "./types.js";

const SUMMARY = /^\s*Total:\s+(\d+)\n\s*Passed:\s+(\d+)\n\s*Skipped:\s+(\d+)/m;
// A file's line (`a.js`) and under it one mark per test with the file's count: `• ✘   (1 / 2)`.
const MARKS = /^[•✘ ]+\((\d+) \/ (\d+)\)$/;
// A failure's heading under its file: `   FAIL  "subs"` or `   FAIL  math  "subs"` for a named suite.
const FAIL = /^\s+FAIL\s+(?:(\S.*?)\s+)?"(.*)"$/;
const MAX_LINE = 2000;

/**
 * uvu's default reporter: each file with a mark per test and its `(passed / total)` count (skipped tests not
 * counted), the failing tests named under it, the run's totals. Passing tests are never named: the files' counts are
 * the evidence for them (file-evidence.ts).
 */
export const parseUvu: OutputParser = (text) => {
  const summary = SUMMARY.exec(text);
  if (!summary) return null;
  const lines = text.split("\n");
  const files: FileOutcome[] = [];
  const failing: TestCase[] = [];
  let file: string | null = null;
  lines.forEach((line, i) => {
    if (line.length > MAX_LINE) return;
    const marks = MARKS.exec(line.trim());
    if (marks && i > 0 && lines[i - 1].trim()) {
      file = lines[i - 1].trim();
      const [passed, total] = [Number(marks[1]), Number(marks[2])];
      files.push({ file, status: passed === total ? "passed" : "failed", count: total, skipped: 0 });
      return;
    }
    const fail = FAIL.exec(line);
    if (fail && file) failing.push({ id: [file, fail[1], fail[2]].filter(Boolean).join(" > "), status: "failed" });
  });
  const [total, passed, skipped] = [Number(summary[1]), Number(summary[2]), Number(summary[3])];
  return {
    passedCount: passed,
    failedCount: Math.max(0, total - passed),
    failures: firstFailures(failing.map((t) => t.id)),
    tests: failing.length ? failing : null,
    ...(files.length ? { files } : {}),
    ...(skipped ? { skippedCount: skipped } : {}),
  };
};
