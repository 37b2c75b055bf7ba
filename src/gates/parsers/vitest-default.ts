import type { FileOutcome, TestCase, TestStatus } from "./types.js";

// ` ✓ test/b.test.js (2 tests) 4ms`, ` ❯ test/a.test.js (6 tests | 1 failed | 1 skipped | 1 todo) 55ms`, ` ↓ x.test.js (2 tests | 2 skipped)`.
const FILE_LINE = /^(\s*)(✓|√|❯|×|✗|↓) (\S+) \((\d+) tests?((?: \| \d+ [a-z]+)*)\)(?: \d+(?:\.\d+)?m?s)?$/;
// A test under a file the default reporter lists (a failing one): `   ✓ inc 1 0ms`, `   × subs 33ms (retry x2)`.
const TEST_LINE = /^(\s+)(✓|√|×|✗|↓|□) (.+?)(?: \d+(?:\.\d+)?m?s)?(?: \(retry x(\d+)\))?$/;
// The failures section: ` FAIL  test/a.test.js > outer > inner > subs`, ` FAIL  test/c.test.js [ test/c.test.js ]`.
const FAIL_LINE = /^\s*FAIL\s+(\S.*?)\s*$/;
// Lines longer than this are nobody's test line; they are not matched at all (bounded work on untrusted text).
const MAX_LINE = 2000;

/**
 * vitest's default reporter: a green file is one line with its count (`✓ file (34 tests)`), a failing file lists its
 * tests under it without their describe blocks, and the failures section names each failing test in full. So: every
 * file's outcome with the runner's count, every failing test by its full id, and the tests a failing file lists at
 * its top level (`file > name`; deeper ones have no describe path to be named by).
 */
export function vitestDefault(text: string): { tests: TestCase[]; files: FileOutcome[] } {
  const files: FileOutcome[] = [];
  const tests = new Map<string, TestCase>();
  let open: { file: string; indent: number } | null = null;
  for (const raw of text.split("\n")) {
    const line = raw.trimEnd();
    if (line.length > MAX_LINE) continue;
    const file = FILE_LINE.exec(line);
    if (file) {
      const outcome = fileOutcome(file);
      files.push(outcome);
      open = outcome.status === "failed" ? { file: outcome.file, indent: file[1].length } : null;
      continue;
    }
    const fail = FAIL_LINE.exec(line);
    if (fail) {
      open = null;
      const loadFailed = / \[ (\S+) \]$/.exec(fail[1]);
      const id = loadFailed ? loadFailed[1] : fail[1];
      tests.set(id, { id, status: "failed" });
      if (loadFailed) markLoadError(files, id);
      continue;
    }
    const test = open ? TEST_LINE.exec(line) : null;
    if (!open || !test) {
      if (line.trim()) open = null;
      continue;
    }
    // Two more spaces than the file line: a test outside any describe block, whose id is certain.
    if (test[1].length !== open.indent + 2) continue;
    const id = `${open.file} > ${test[3]}`;
    if (!tests.has(id)) tests.set(id, testOf(id, test[2], test[4]));
  }
  return { tests: [...tests.values()], files };
}

function fileOutcome(m: RegExpExecArray): FileOutcome {
  const count = Number(m[4]);
  const part = (word: string) => Number(new RegExp(`\\| (\\d+) ${word}\\b`).exec(m[5])?.[1] ?? 0);
  const skipped = part("skipped") + part("todo");
  const status: TestStatus = m[2] === "↓" ? "skipped" : m[2] === "✓" || m[2] === "√" ? "passed" : "failed";
  return { file: m[3], status, count, skipped };
}

function markLoadError(files: FileOutcome[], file: string): void {
  const outcome = files.find((f) => f.file === file);
  if (outcome && (outcome.count ?? 0) === 0) outcome.loadError = true;
  else if (!outcome) files.push({ file, status: "failed", count: 0, skipped: 0, loadError: true });
}

function testOf(id: string, mark: string, retries: string | undefined): TestCase {
  const status: TestStatus = mark === "↓" || mark === "□" ? "skipped" : mark === "✓" || mark === "√" ? "passed" : "failed";
  return status === "passed" && retries ? { id, status, flaky: true } : { id, status };
}
