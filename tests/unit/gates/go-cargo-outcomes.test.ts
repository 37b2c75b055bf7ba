import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseTestOutput } from "../../../src/gates/parse.js";
import { reportingCommand } from "../../../src/gates/test-cases.js";

// Outputs captured from go 1.19 (`go test -v ./...`: subtests, a skip, a panic, a package that does not build) and
// cargo 1.95 (`cargo test --no-fail-fast`: should_panic, ignored, an integration test, doc tests, one failing).
const fixture = (name: string) => readFileSync(new URL(`../../fixtures/gate-output/${name}`, import.meta.url), "utf8");
const statuses = (tests: Array<{ id: string; status: string }> | null | undefined) => Object.fromEntries((tests ?? []).map((t) => [t.id, t.status]));

describe("go test: the runner's own count decides", () => {
  it("subtests and skips by package; a panic and a build failure fail their whole package", () => {
    const out = parseTestOutput(fixture("go-119-v-outcomes.txt"));
    expect(statuses(out.tests)).toEqual({
      "example.com/m/a TestOk": "passed",
      "example.com/m/a TestSub": "failed",
      "example.com/m/a TestSub/one": "passed",
      "example.com/m/a TestSub/two_words": "failed",
      "example.com/m/a TestSkip": "skipped",
      "example.com/m/b TestFirst": "passed",
      "example.com/m/b TestPanics": "failed",
      // TestAfter never ran: the panic stopped the package, which fails as a whole.
      "example.com/m/b": "failed",
      "example.com/m/c": "failed",
    });
    expect(out.tests?.filter((t) => t.unit !== undefined).map((t) => t.unit)).toEqual(["example.com/m/b ", "example.com/m/c "]);
    expect(out.failures).toEqual(expect.arrayContaining(["example.com/m/b [stopped before its tests ended]", "example.com/m/c [build failed]"]));
  });

  it("a package that failed with no failing test listed (os.Exit in TestMain) fails as a whole", () => {
    const out = parseTestOutput("=== RUN   TestA\n--- PASS: TestA (0.00s)\nFAIL\texample.com/x\t0.002s\n");
    expect(out.tests).toEqual([
      { id: "example.com/x TestA", status: "passed" },
      { id: "example.com/x", status: "failed", unit: "example.com/x " },
    ]);
  });
});

describe("cargo test: the runner's own count decides", () => {
  it("should_panic by its path, ignored skipped, doc tests by item without their line", () => {
    const out = parseTestOutput(fixture("cargo-195-outcomes.txt"));
    expect(statuses(out.tests)).toEqual({
      "src/lib.rs tests::adds": "passed",
      "src/lib.rs tests::no_panic": "failed",
      "src/lib.rs tests::slow": "skipped",
      "src/lib.rs tests::panics": "passed",
      "tests/api.rs api_ok": "passed",
      "doc calc src/lib.rs - add": "passed",
      "doc calc src/lib.rs - add #2": "failed",
    });
    expect(out).toMatchObject({ passedCount: 4, failedCount: 2 });
  });

  it("two doc tests of one item keep their ids when an edit above them moves both", () => {
    const run = (a: number, b: number) =>
      parseTestOutput(
        `   Doc-tests calc\ntest src/lib.rs - add (line ${b}) ... FAILED\ntest src/lib.rs - add (line ${a}) ... ok\ntest result: FAILED. 1 passed; 1 failed;`,
      ).tests;
    expect(run(2, 5)).toEqual(run(12, 15));
  });

  it("yolo runs a plain cargo test with --no-fail-fast, so a failing binary does not hide the next ones' tests", () => {
    expect(reportingCommand("cargo test", {})).toBe("cargo test --no-fail-fast 2>&1");
    expect(reportingCommand("cargo test -- --nocapture", {})).toBe("cargo test --no-fail-fast -- --nocapture 2>&1");
    expect(reportingCommand("cargo test --no-fail-fast -p 'x'", {})).toBe("cargo test --no-fail-fast -p 'x' 2>&1");
  });
});
