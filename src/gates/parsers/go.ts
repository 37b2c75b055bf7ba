import { firstFailures, type OutputParser, type TestCase, type TestStatus } from "./types.js";

// `--- PASS: TestAdd (0.00s)`, indented for subtests: `    --- FAIL: TestAdd/negative (0.00s)`.
const RESULT = /^\s*--- (PASS|FAIL|SKIP): (\S+) \([\d.]+s\)/;
// `ok  \texample.com/calc\t0.002s`, `FAIL\texample.com/calc\t0.003s`, `FAIL\texample.com/calc [build failed]`.
const PACKAGE_LINE = /^(ok|FAIL)[ \t]+(\S+)(?:[ \t]+(.*))?$/;
// A test binary that stopped before its tests ended: a panic (a timeout is one), `os.Exit`, a fatal error.
const STOPPED = /^(?:panic: |fatal error: )/;
const STATUS: Record<string, TestStatus> = { PASS: "passed", FAIL: "failed", SKIP: "skipped" };
const MAX_LINE = 4000;

interface Package {
  tests: TestCase[];
  /** The package failed as a whole: it did not build, or its binary stopped before every test had run. */
  broken: string | null;
  /** Why, as the failures list shows it. */
  why: string;
}

/**
 * `go test -v`: every `--- PASS/FAIL/SKIP` line (subtests included) is a test, named by its package (from the
 * `ok`/`FAIL` line that closes the package's output) and full name. A package that does not build, or whose test
 * binary panicked or exited before its tests ended, is a failure of the whole package: the tests it did not run fail
 * with it (`unit`, see unit-failures.ts). Without `-v` only failures are listed, so the passed count is unknown.
 */
export const parseGoTest: OutputParser = (text) => {
  const { packages, verbose } = readPackages(text);
  if (packages.length === 0) return null;
  const tests = packages.flatMap((p) => p.tests);
  const broken = packages.filter((p) => p.broken !== null);
  const failed = tests.filter((t) => t.status === "failed");
  const units: TestCase[] = broken.map((p) => ({ id: p.broken ?? "", status: "failed", unit: `${p.broken} ` }));
  return {
    passedCount: verbose ? tests.filter((t) => t.status === "passed").length : null,
    failedCount: failed.length + broken.length,
    failures: firstFailures([...broken.map((p) => `${p.broken} ${p.why}`), ...failed.map((t) => t.id)]),
    tests: verbose ? [...tests, ...units] : null,
  };
};

// The output cut into packages at each `ok`/`FAIL <package>` line, which closes the lines before it.
function readPackages(text: string): { packages: Package[]; verbose: boolean } {
  const packages: Package[] = [];
  let pending: Array<{ name: string; status: TestStatus }> = [];
  let stopped = false;
  let verbose = false;
  for (const line of text.split("\n")) {
    if (line.length > MAX_LINE) continue;
    if (line.startsWith("=== RUN")) verbose = true;
    const result = RESULT.exec(line);
    if (result) pending.push({ name: result[2], status: STATUS[result[1]] });
    else if (STOPPED.test(line)) stopped = true;
    const pkg = result ? null : PACKAGE_LINE.exec(line);
    if (!pkg || !/^(\[|[\d.]+s|\(cached\))/.test(pkg[3] ?? "")) continue;
    const failedTest = pending.some((t) => t.status === "failed");
    const notBuilt = /\[(build|setup) failed\]/.test(pkg[3] ?? "");
    // A package that failed with no failing test listed stopped early too (TestMain's os.Exit, a crash).
    const whole = notBuilt || (pkg[1] === "FAIL" && (stopped || !failedTest));
    const tests = pending.map((t): TestCase => ({ id: `${pkg[2]} ${t.name}`, status: t.status }));
    packages.push({ tests, broken: whole ? pkg[2] : null, why: notBuilt ? "[build failed]" : "[stopped before its tests ended]" });
    pending = [];
    stopped = false;
  }
  return { packages, verbose };
}
