import { firstFailures, type OutputParser, type TestCase, type TestStatus } from "./types.js";

// `     Running unittests src/lib.rs (target/debug/deps/calc-1a2b)`, `     Running tests/api.rs (…)`, `   Doc-tests calc`.
const SECTION = /^\s*(?:Running (?:unittests )?(\S+)|Doc-tests (\S+))/;
// `test tests::adds ... ok`, `test src/lib.rs - add (line 3) ... FAILED`, `test slow ... ignored, needs a db`.
const RESULT = /^test (.+?) \.\.\. (ok|FAILED|ignored)\b/;
const SUMMARY = /^test result: \w+\. (\d+) passed; (\d+) failed;/;
const COMPILE_ERROR = /^error: could not compile `([^`]+)`/m;
const STATUS: Record<string, TestStatus> = { ok: "passed", FAILED: "failed", ignored: "skipped" };

/**
 * `cargo test`: each test binary's `test … ... ok|FAILED|ignored` lines, named by the binary's source (the hash in
 * its file name changes with every build) and the test path; counts from the `test result:` lines. A crate that
 * does not compile is one failure.
 */
export const parseCargoTest: OutputParser = (text) => {
  const tests: TestCase[] = [];
  let section = "";
  let passed = 0;
  let failed = 0;
  let summaries = 0;
  for (const line of text.split("\n")) {
    const header = SECTION.exec(line);
    if (header) {
      section = header[1] ?? `doc ${header[2]}`;
      continue;
    }
    const result = RESULT.exec(line);
    if (result) {
      tests.push({ id: section ? `${section} ${result[1]}` : result[1], status: STATUS[result[2]] });
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
  return {
    passedCount: passed,
    failedCount: failed + (broken ? 1 : 0),
    failures: firstFailures([...(broken ? [`${broken[1]} (does not compile)`] : []), ...tests.filter((t) => t.status === "failed").map((t) => t.id)]),
    tests,
  };
};
