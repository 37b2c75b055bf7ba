import { describe, expect, it } from "vitest";
import type { BaselineGate } from "../../../src/gates/judge.js";
import { judgeGate } from "../../../src/gates/judge.js";
import { readTestOutput } from "../../../src/gates/parse.js";
import { testCasesFromOutput } from "../../../src/gates/test-cases.js";
import { gateResult } from "../../helpers/gate-result.js";

const opts = { preExistingAllowed: false, changes: [] as string[], approved: false };

// A run as the gate reads it from printed output: tests, counts, summed-up files and the runner.
function read(output: string, exitCode: number) {
  const { counts, runner } = readTestOutput(output);
  const tests = counts.tests ?? testCasesFromOutput(output, "/p");
  const result = gateResult({ passed: exitCode === 0, exitCode, passedCount: counts.passedCount, failedCount: counts.failedCount });
  return { result, tests, evidence: { files: counts.files, skippedCount: counts.skippedCount, runner } };
}

function baseline(output: string, exitCode: number): BaselineGate {
  const r = read(output, exitCode);
  return {
    name: "test",
    passed: exitCode === 0,
    passedCount: r.result.passedCount,
    failedCount: r.result.failedCount,
    tests: r.tests,
    files: r.evidence.files,
    skippedCount: r.evidence.skippedCount,
  };
}

function judge(base: BaselineGate, output: string, exitCode: number) {
  const r = read(output, exitCode);
  return judgeGate(r.result, r.tests, base, { ...opts, evidence: r.evidence });
}

const summary = (failed: number, passed: number, skipped = 0) =>
  `\n Test Files  ${failed ? "1 failed | " : ""}1 passed (2)\n      Tests  ${failed ? `${failed} failed | ` : ""}${passed} passed${skipped ? ` | ${skipped} skipped` : ""} (${failed + passed + skipped})\n`;

// vitest's default reporter: the failing file lists its tests (describe blocks unnamed), the failures section names them in full.
const VITEST_RED = ` ❯ src/set.spec.ts (4 tests | 1 failed) 9ms
   ✓ parses 1ms
       ✓ nested passes 1ms
       × nested fails 3ms
   ✓ parses again 1ms
 ✓ src/other.spec.ts (3 tests) 2ms

 FAIL  src/set.spec.ts > cookies > attrs > nested fails
AssertionError: expected 1 to be 2
${summary(1, 6)}`;
const vitestGreen = (count: string, passed: number, skipped = 0) =>
  ` ✓ src/set.spec.ts (${count}) 9ms\n ✓ src/other.spec.ts (3 tests) 2ms\n${summary(0, passed, skipped)}`;

describe("a file the runner sums up is evidence about the tests it does not list", () => {
  it("vitest: a failing file printed in full at the baseline, one green line now: fixed, nothing missing", () => {
    const base = baseline(VITEST_RED, 1);
    expect(base.tests?.map((t) => t.id)).toContain("src/set.spec.ts > cookies > attrs > nested fails");
    const j = judge(base, vitestGreen("4 tests", 7), 0);
    expect(j).toMatchObject({ fixed: ["src/set.spec.ts > cookies > attrs > nested fails"], regressions: [], missing: [], blocking: false });
    expect(j.findings).toEqual([]);
  });

  it("vitest: a count that dropped, or more tests skipped, leaves the unlisted tests missing and says why", () => {
    const base = baseline(VITEST_RED, 1);
    const dropped = judge(base, vitestGreen("2 tests", 5), 0);
    expect(dropped).toMatchObject({ blocking: true, missing: expect.arrayContaining(["src/set.spec.ts > parses", "src/set.spec.ts > parses again"]) });
    expect(dropped.findings.join("\n")).toMatch(/vitest: src\/set\.spec\.ts: the runner counted 2 tests/);
    const skipped = judge(base, vitestGreen("4 tests | 1 skipped", 6, 1), 0);
    expect(skipped.blocking).toBe(true);
    expect(skipped.findings.join("\n")).toMatch(/1 skipped or todo, the baseline 0/);
  });

  it("vitest: a file that no longer loads fails every test of it the baseline knew", () => {
    const base = baseline(vitestGreen("4 tests", 7).replace(" ✓ src/set.spec.ts (4 tests)", " ❯ src/set.spec.ts (4 tests | 1 failed)"), 1);
    const green = baseline(`${VITEST_RED.split("\n").slice(0, 5).join("\n")}\n ✓ src/set.spec.ts (4 tests)\n${summary(0, 7)}`, 0);
    const broken = ` ❯ src/set.spec.ts (0 test)\n ✓ src/other.spec.ts (3 tests) 2ms\n\n FAIL  src/set.spec.ts [ src/set.spec.ts ]\nError: Cannot find module\n${summary(1, 3)}`;
    const j = judge({ ...green, tests: [{ id: "src/set.spec.ts > parses", status: "passed" }] }, broken, 1);
    expect(j).toMatchObject({ regressions: ["src/set.spec.ts > parses"], missing: [], blocking: true });
    expect(base.files?.[0]).toMatchObject({ file: "src/set.spec.ts", status: "failed", count: 4 });
  });

  it("jest: `PASS file` without per-test lines passes the tests the baseline listed there", () => {
    const red = `FAIL test/a.test.js\n  ● outer › fails\n\n    expect(received).toBe(expected)\n\nPASS test/b.test.js\nTest Suites: 1 failed, 1 passed, 2 total\nTests:       1 failed, 3 passed, 4 total\n`;
    const base = baseline(red, 1);
    expect(base.tests).toEqual([{ id: "test/a.test.js > outer > fails", status: "failed" }]);
    const green = `PASS test/a.test.js\nPASS test/b.test.js\nTest Suites: 2 passed, 2 total\nTests:       4 passed, 4 total\n`;
    expect(judge(base, green, 0)).toMatchObject({ fixed: ["test/a.test.js > outer > fails"], missing: [], blocking: false });
    const fewer = `PASS test/a.test.js\nPASS test/b.test.js\nTest Suites: 2 passed, 2 total\nTests:       1 skipped, 3 passed, 4 total\n`;
    expect(judge(base, fewer, 0)).toMatchObject({ missing: ["test/a.test.js > outer > fails"], blocking: true });
  });

  it("counts only (a dot reporter): no failure and no fewer tests passes the baseline's tests; a failure cannot be placed", () => {
    const base: BaselineGate = {
      name: "test",
      passed: true,
      passedCount: 2,
      failedCount: 0,
      tests: [
        { id: "a", status: "passed" },
        { id: "b", status: "passed" },
      ],
    };
    const ok = judgeGate(gateResult({ passed: true, exitCode: 0, passedCount: 2, failedCount: 0 }), null, base, { ...opts, evidence: { runner: "mocha" } });
    expect(ok).toMatchObject({ missing: [], regressions: [], blocking: false });
    const red = judgeGate(gateResult({ passedCount: 1, failedCount: 1 }), null, base, { ...opts, evidence: { runner: "mocha" } });
    expect(red.blocking).toBe(true);
    expect(red.findings.join("\n")).toMatch(/mocha: the run: the runner counted 1 failing without naming them/);
  });

  it("exit 0 with no failure counted, yet a test read as failing: judged by the runner's count, and said", () => {
    const base: BaselineGate = { name: "test", passed: true, passedCount: 1, failedCount: 0, tests: [{ id: "a", status: "passed" }] };
    const j = judgeGate(gateResult({ passed: true, exitCode: 0, passedCount: 1, failedCount: 0 }), [{ id: "a", status: "failed" }], base, {
      ...opts,
      evidence: { runner: "vitest" },
    });
    expect(j).toMatchObject({ regressions: [], blocking: false });
    expect(j.findings).toEqual(["vitest exited 0 and counted no failure, but yolo read 1 tests as failing from its output (a): judged by the runner's count"]);
  });

  it("a test that passed only after a retry passes, and is named flaky", () => {
    const base: BaselineGate = { name: "test", passed: true, passedCount: 1, failedCount: 0, tests: [{ id: "a", status: "passed" }] };
    const j = judgeGate(gateResult({ passed: true, exitCode: 0 }), [{ id: "a", status: "passed", flaky: true }], base, opts);
    expect(j).toMatchObject({ flaky: ["a"], blocking: false, regressions: [] });
    expect(j.findings).toEqual(["passed only after a retry (flaky): a"]);
  });
});
