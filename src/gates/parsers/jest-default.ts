import type { FileOutcome, TestCase } from "./types.js";

const FILE_LINE = /^(PASS|FAIL) (\S+)/;
// `  ● outer › inner › subs`: a failure's heading under its file (jest's own `●` headings are not tests).
const BULLET = /^ {2}● (.+?)\s*$/;
const NOT_A_TEST = new Set(["Test suite failed to run", "Console"]);
const MAX_LINE = 2000;

/**
 * jest's default reporter with several files: `PASS file` / `FAIL file` for each, and under a failing file a `●`
 * heading per failing test (`describe › test`). Every file's outcome (jest prints no per-file count), each failing
 * test as `file > describe > test`, and a file that did not load as one failing test named by its path.
 */
export function jestDefault(text: string): { tests: TestCase[]; files: FileOutcome[] } {
  const files: FileOutcome[] = [];
  const tests = new Map<string, TestCase>();
  let file: FileOutcome | null = null;
  for (const line of text.split("\n")) {
    if (line.length > MAX_LINE) continue;
    const header = FILE_LINE.exec(line);
    if (header) {
      file = { file: header[2], status: header[1] === "PASS" ? "passed" : "failed", count: null, skipped: 0 };
      files.push(file);
      continue;
    }
    if (/^(Test Suites|Tests):/.test(line)) file = null;
    const bullet = file?.status === "failed" ? BULLET.exec(line) : null;
    if (!file || !bullet) continue;
    if (bullet[1] === "Test suite failed to run") {
      file.loadError = true;
      file.count = 0;
      tests.set(file.file, { id: file.file, status: "failed" });
    } else if (!NOT_A_TEST.has(bullet[1])) {
      const id = [file.file, ...bullet[1].split(" › ")].join(" > ");
      tests.set(id, { id, status: "failed" });
    }
  }
  return { tests: [...tests.values()], files };
}
