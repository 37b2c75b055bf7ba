import { firstFailures, type OutputParser, type TestCase, type TestStatus } from "./types.js";

// `     Running unittests src/lib.rs (target/debug/deps/calc-1a2b)`, `     Running tests/api.rs (…)`, `   Doc-tests calc`.
const SECTION = /^\s*(?:Running (?:unittests )?(\S+)|Doc-tests (\S+))/;
// `test tests::adds ... ok`, `test src/lib.rs - add (line 3) ... FAILED`, `test slow ... ignored, needs a db`.
const RESULT = /^test (.+?) \.\.\. (ok|FAILED|ignored)\b/;
const SUMMARY = /^test result: \w+\. (\d+) passed; (\d+) failed;/;
const COMPILE_ERROR = /^error: could not compile `([^`]+)`/m;
// `tests::panics - should panic`, `src/lib.rs - add (line 3)`: the test's path, and a doc test's line apart.
const SHOULD_PANIC = / - should panic(?: with .*)?$/;
const DOC_LINE = / \(line (\d+)\)$/;
const STATUS: Record<string, TestStatus> = { ok: "passed", FAILED: "failed", ignored: "skipped" };
const MAX_LINE = 4000;

interface Result {
  name: string;
  /** A doc test's line in its file: not part of its id (an edit above the item moves it). */
  line: number | null;
  status: TestStatus;
}

/**
 * `cargo test`: each test binary's `test … ... ok|FAILED|ignored` lines, named by the binary's source (the hash in
 * its file name changes with every build) and the test path; counts from the `test result:` lines. A crate that
 * does not compile is a failure of every test (`unit: ""`): cargo builds every test target before it runs one.
 */
export const parseCargoTest: OutputParser = (text) => {
  const results: Result[] = [];
  let section = "";
  let passed = 0;
  let failed = 0;
  let summaries = 0;
  for (const line of text.split("\n")) {
    if (line.length > MAX_LINE) continue;
    const header = SECTION.exec(line);
    if (header) {
      section = header[1] ?? `doc ${header[2]}`;
      continue;
    }
    const result = RESULT.exec(line);
    if (result) {
      results.push(named(section, result[1], STATUS[result[2]]));
      continue;
    }
    const summary = SUMMARY.exec(line);
    if (summary) {
      summaries++;
      passed += Number(summary[1]);
      failed += Number(summary[2]);
    }
  }
  const broken = COMPILE_ERROR.exec(text);
  if (summaries === 0 && !broken) return null;
  const unit: TestCase[] = broken ? [{ id: `${broken[1]} (does not compile)`, status: "failed", unit: "" }] : [];
  const tests = withIds(results);
  return {
    passedCount: passed,
    failedCount: failed + unit.length,
    failures: firstFailures([...unit.map((u) => u.id), ...tests.filter((t) => t.status === "failed").map((t) => t.id)]),
    tests: [...tests, ...unit],
  };
};

function named(section: string, raw: string, status: TestStatus): Result {
  const doc = DOC_LINE.exec(raw);
  const name = raw.replace(SHOULD_PANIC, "").replace(DOC_LINE, "");
  return { name: section ? `${section} ${name}` : name, line: doc ? Number(doc[1]) : null, status };
}

// Doc tests of one item in line order: the first keeps the item's name, the next are `#2`, `#3`.
function withIds(results: Result[]): TestCase[] {
  const byName = new Map<string, Result[]>();
  for (const r of results) {
    const same = byName.get(r.name);
    if (same) same.push(r);
    else byName.set(r.name, [r]);
  }
  const ids = new Map<Result, string>();
  for (const [name, same] of byName) {
    same.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
    for (const [i, r] of same.entries()) ids.set(r, i === 0 ? name : `${name} #${i + 1}`);
  }
  return results.map((r) => ({ id: ids.get(r) ?? r.name, status: r.status }));
}
