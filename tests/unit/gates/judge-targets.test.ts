import { describe, expect, it } from "vitest";
import type { TestStatus } from "../../../src/gates/parsers/types.js";
import { judgeGate } from "../../../src/gates/judge.js";
import { knownFailureMatcher, ownName } from "../../../src/gates/known-failures.js";
import { gateResult } from "../../helpers/gate-result.js";

const base = (tests: Array<[string, TestStatus]>) => ({
  name: "test",
  passed: false,
  passedCount: null,
  failedCount: null,
  tests: tests.map(([id, status]) => ({ id, status })),
});
const now = (tests: Array<[string, TestStatus]>) => tests.map(([id, status]) => ({ id, status }));
// The default: failures there at the baseline are the task's targets.
const opts = { preExistingAllowed: false, changes: [] as string[], approved: false };
const red = gateResult();
const green = gateResult({ passed: true, exitCode: 0 });

describe("a test failing at the baseline is the task's target", () => {
  it("blocks while it still fails, and is fixed once it passes", () => {
    const b = base([
      ["a", "passed"],
      ["target", "failed"],
    ]);
    const still = judgeGate(
      red,
      now([
        ["a", "passed"],
        ["target", "failed"],
      ]),
      b,
      opts,
    );
    expect(still).toMatchObject({ blocking: true, preExisting: ["target"], regressions: [], fixed: [] });
    const fixed = judgeGate(
      green,
      now([
        ["a", "passed"],
        ["target", "passed"],
        ["extra", "passed"],
      ]),
      b,
      opts,
    );
    expect(fixed).toMatchObject({ blocking: false, preExisting: [], fixed: ["target"], newPassing: ["extra"] });
  });

  it('under baseline: "report" the same run does not block (the old default, an explicit opt-in)', () => {
    const b = base([["target", "failed"]]);
    expect(judgeGate(red, now([["target", "failed"]]), b, { ...opts, preExistingAllowed: true })).toMatchObject({
      blocking: false,
      preExisting: ["target"],
    });
  });

  it("a baseline-passing test now skipped or todo is missing and blocks like a regression, whatever the marker", () => {
    const b = base([
      ["a", "passed"],
      ["b", "passed"],
    ]);
    const j = judgeGate(
      green,
      now([
        ["a", "passed"],
        ["b", "skipped"],
      ]),
      b,
      opts,
    );
    expect(j).toMatchObject({ blocking: true, missing: ["b"], regressions: ["b"] });
  });

  it("a target skipped now is not fixed: it still blocks; a file that failed to load and now runs its tests is fixed", () => {
    const skipped = judgeGate(green, now([["target", "skipped"]]), base([["target", "failed"]]), opts);
    expect(skipped).toMatchObject({ blocking: true, missing: ["target"], preExisting: ["target"] });
    const loads = judgeGate(green, now([["adds two numbers", "passed"]]), base([["test/add.test.js", "failed"]]), opts);
    expect(loads).toMatchObject({ blocking: false, preExisting: [], missing: [], fixed: ["test/add.test.js"], newPassing: ["adds two numbers"] });
  });

  it("a known failure declared by a person does not block and says where it was declared; once it passes it is fixed", () => {
    const b = base([
      ["a", "passed"],
      ["suite > flaky", "failed"],
    ]);
    const known = knownFailureMatcher([{ pattern: "flaky", declaredIn: "--known-failure" }]);
    const j = judgeGate(
      red,
      now([
        ["a", "passed"],
        ["suite > flaky", "failed"],
      ]),
      b,
      { ...opts, known },
    );
    expect(j).toMatchObject({ blocking: false, preExisting: [], known: [{ id: "suite > flaky", declaredIn: "--known-failure" }] });
    const passes = judgeGate(
      green,
      now([
        ["a", "passed"],
        ["suite > flaky", "passed"],
      ]),
      b,
      { ...opts, known },
    );
    expect(passes).toMatchObject({ blocking: false, fixed: ["suite > flaky"], known: [] });
    // A red exit with a failing test nobody declared is still explained by nothing: it blocks.
    const other = judgeGate(
      red,
      now([
        ["a", "passed"],
        ["suite > flaky", "failed"],
        ["new", "failed"],
      ]),
      b,
      { ...opts, known },
    );
    expect(other).toMatchObject({ blocking: true, newFailures: ["new"] });
  });
});

describe("known-failure patterns", () => {
  it("match a full id or the test's own name, with * as a wildcard and everything else literal", () => {
    expect(ownName("test/a.test.js > math > adds")).toBe("adds");
    expect(ownName("tests/test_x.py::test_adds")).toBe("test_adds");
    expect(ownName("example.com/x TestAdd")).toBe("TestAdd");
    const m = knownFailureMatcher([
      { pattern: "test/net.test.js > *", declaredIn: "config" },
      { pattern: "adds (x+y)", declaredIn: "flag" },
    ]);
    expect(m("test/net.test.js > fetch > times out")).toBe("config");
    expect(m("other > adds (x+y)")).toBe("flag");
    expect(m("other > adds (xxy)")).toBeNull();
    expect(m("test/net.test.jsX > a")).toBeNull();
  });
});
