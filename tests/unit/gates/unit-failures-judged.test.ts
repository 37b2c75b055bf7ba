import { describe, expect, it } from "vitest";
import { judgeGate } from "../../../src/gates/judge.js";
import type { TestCase } from "../../../src/gates/parsers/types.js";
import { gateResult } from "../../helpers/gate-result.js";

// A file that does not import, a package that does not build: the runner did not run the tests under it, and they
// failed with it. The judge must say so (regressions, targets), not call them "missing", and not keep a unit that
// failed at the baseline as a target once its tests run.
const base = (tests: TestCase[]) => ({ name: "test", passed: false, passedCount: null, failedCount: null, tests });
const opts = { preExistingAllowed: false, changes: [] as string[], approved: false };
const red = gateResult();
const green = gateResult({ passed: true, exitCode: 0 });

describe("a unit that fails as a whole", () => {
  it("pytest: a file that stops importing fails the baseline's tests in it, as regressions and targets", () => {
    const b = base([
      { id: "tests/test_x.py::test_a", status: "passed" },
      { id: "tests/test_x.py::test_b", status: "failed" },
      { id: "tests/test_y.py::test_c", status: "passed" },
    ]);
    const now: TestCase[] = [
      { id: "tests/test_x.py", status: "failed", unit: "tests/test_x.py::" },
      { id: "tests/test_y.py::test_c", status: "passed" },
    ];
    const j = judgeGate(red, now, b, opts);
    expect(j).toMatchObject({ regressions: ["tests/test_x.py::test_a"], preExisting: ["tests/test_x.py::test_b"], missing: [], newFailures: [] });
    expect(j.blocking).toBe(true);
  });

  it("go: a package that failed to build at the baseline is fixed once its tests run, and its failing test is new", () => {
    const b = base([
      { id: "example.com/m/a TestA", status: "passed" },
      { id: "example.com/m/c", status: "failed", unit: "example.com/m/c " },
    ]);
    const fixedNow = judgeGate(
      green,
      [
        { id: "example.com/m/a TestA", status: "passed" },
        { id: "example.com/m/c TestC", status: "passed" },
      ],
      b,
      opts,
    );
    expect(fixedNow).toMatchObject({ fixed: ["example.com/m/c"], preExisting: [], missing: [], blocking: false });
    const oneFails = judgeGate(
      red,
      [
        { id: "example.com/m/a TestA", status: "passed" },
        { id: "example.com/m/c TestC", status: "failed" },
      ],
      b,
      opts,
    );
    expect(oneFails).toMatchObject({ fixed: ["example.com/m/c"], newFailures: ["example.com/m/c TestC"], blocking: true });
  });

  it('cargo: a crate that stops compiling fails every baseline test (unit ""), and a unit covering nothing known is a new failure', () => {
    const b = base([
      { id: "src/lib.rs tests::a", status: "passed" },
      { id: "tests/api.rs b", status: "passed" },
      // Skipped at the baseline: it was not going to run, so it does not fail with the crate.
      { id: "src/lib.rs tests::slow", status: "skipped" },
    ]);
    const j = judgeGate(red, [{ id: "calc (does not compile)", status: "failed", unit: "" }], b, opts);
    expect(j).toMatchObject({ regressions: ["src/lib.rs tests::a", "tests/api.rs b"], missing: [], newFailures: [] });
    const nothingKnown = judgeGate(red, [{ id: "example.com/z", status: "failed", unit: "example.com/z " }], base([]), opts);
    expect(nothingKnown).toMatchObject({ newFailures: ["example.com/z"], blocking: true });
  });

  it("control: without a unit record the same absent tests are missing", () => {
    const b = base([{ id: "tests/test_x.py::test_a", status: "passed" }]);
    const j = judgeGate(red, [{ id: "tests/test_y.py::test_c", status: "failed" }], b, opts);
    expect(j).toMatchObject({ missing: ["tests/test_x.py::test_a"] });
  });
});
