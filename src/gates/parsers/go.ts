import { firstFailures, type OutputParser, type TestCase, type TestStatus } from "./types.js";

// `--- PASS: TestAdd (0.00s)`, indented for subtests: `    --- FAIL: TestAdd/negative (0.00s)`.
const RESULT = /^\s*--- (PASS|FAIL|SKIP): (\S+) \([\d.]+s\)/;
// `ok  \texample.com/calc\t0.002s`, `FAIL\texample.com/calc\t0.003s`, `FAIL\texample.com/calc [build failed]`.
const PACKAGE_LINE = /^(ok|FAIL)[ \t]+(\S+)(?:[ \t]+(.*))?$/;
const STATUS: Record<string, TestStatus> = { PASS: "passed", FAIL: "failed", SKIP: "skipped" };

/**
 * `go test -v`: every `--- PASS/FAIL/SKIP` line (subtests included) is a test, named by its package (from the
 * `ok`/`FAIL` line that closes the package's output) and full name. A package that does not build counts as one
 * failure. Without `-v` only failures are listed, so the passed count is unknown (null).
 */
export const parseGoTest: OutputParser = (text) => {
  const tests: TestCase[] = [];
  let pending: Array<{ name: string; status: TestStatus }> = [];
  let packages = 0;
  let verbose = false;
  const brokenPackages: string[] = [];
  for (const line of text.split("\n")) {
    if (line.startsWith("=== RUN")) verbose = true;
    const result = RESULT.exec(line);
    if (result) {
      pending.push({ name: result[2], status: STATUS[result[1]] });
      continue;
    }
    const pkg = PACKAGE_LINE.exec(line);
    if (!pkg || !/^(\[|[\d.]+s|\(cached\))/.test(pkg[3] ?? "")) continue;
    packages++;
    if (/\[(build|setup) failed\]/.test(pkg[3] ?? "")) brokenPackages.push(pkg[2]);
    for (const t of pending) tests.push({ id: `${pkg[2]} ${t.name}`, status: t.status });
    pending = [];
  }
  if (packages === 0 && tests.length === 0) return null;
  const failed = tests.filter((t) => t.status === "failed");
  return {
    passedCount: verbose ? tests.filter((t) => t.status === "passed").length : null,
    failedCount: failed.length + brokenPackages.length,
    failures: firstFailures([...brokenPackages.map((p) => `${p} [build failed]`), ...failed.map((t) => t.id)]),
    tests: verbose ? tests : null,
  };
};
