import { describe, expect, it } from "vitest";
import { endVerdict, type GateCheck, gateVerdict } from "../../../src/gates/verdict.js";
import type { FailureRuling, GateApproval } from "../../../src/state/types.js";
import { gateResult } from "../../helpers/gate-result.js";

const approval: GateApproval = { file: "/s/gate-approved-1.json", changes: ["package.json scripts.test"], by: "tea" };
const ruling: FailureRuling = { id: "suite > net", gate: "test", accepted: true, by: "tea", reason: null, claimedBy: "dev" };
const green = gateResult({ passed: true, blocking: false, treeAfter: "t1" });
const regressed = gateResult({ passed: true, blocking: true, regressions: ["adds"] });
const before = { gateBlocked: false, fixAttempts: 0 };

describe("one function builds the gate verdict", () => {
  it("the human's approval and rulings are part of the check, so a copy of the results keeps them in the state it writes", () => {
    const check: GateCheck = { results: [green], approval, rulings: [ruling] };
    // Whatever copies the record or its results on the way (a spread, a map), the human's words travel with it.
    const copied: GateCheck = { ...check, results: check.results.map((g) => ({ ...g })) };
    const update = gateVerdict({ node: "tea", check: copied, before, judge: "PASS" });
    expect(update).toMatchObject({ gateBlocked: false, fixAttempts: 0, gateApproval: approval, failureRulings: [ruling] });
    expect(update.lastGates).toEqual([green]);
    expect(update.judgedTree).toEqual({ node: "tea", tree: "t1" });
  });

  it("fresh gates: a blocking result or a judge's FAIL blocks and counts one fix attempt; green and PASS do not", () => {
    const check = (results = [green]): GateCheck => ({ results, approval: null, rulings: [] });
    expect(gateVerdict({ node: "tea", check: check([regressed]), before, judge: "PASS" })).toMatchObject({ gateBlocked: true, fixAttempts: 1 });
    expect(gateVerdict({ node: "tea", check: check(), before: { gateBlocked: true, fixAttempts: 2 }, judge: "FAIL" })).toMatchObject({
      gateBlocked: true,
      fixAttempts: 3,
    });
    const passed = gateVerdict({ node: "gate", check: check(), before: { gateBlocked: true, fixAttempts: 2 } });
    expect(passed).toMatchObject({ gateBlocked: false, fixAttempts: 2 });
    expect(passed).not.toHaveProperty("gateApproval");
    expect(passed).not.toHaveProperty("failureRulings");
  });

  it("a judge reading an earlier gate node's results: that node's block stands and is not counted twice; a FAIL on green counts", () => {
    expect(gateVerdict({ node: "tea", check: null, before: { gateBlocked: true, fixAttempts: 1 }, judge: "PASS" })).toEqual({
      gateBlocked: true,
      fixAttempts: 1,
    });
    expect(gateVerdict({ node: "tea", check: null, before: { gateBlocked: false, fixAttempts: 1 }, judge: "FAIL" })).toEqual({
      gateBlocked: true,
      fixAttempts: 2,
    });
    expect(gateVerdict({ node: "tea", check: null, before, judge: "CONCERNS" })).toEqual(before);
  });

  it("the run's end reads the same verdict: the gates that block, and whether only the task's targets do", () => {
    const target = gateResult({ passed: false, blocking: true, preExisting: ["adds"], failedCount: 1 });
    expect(endVerdict({ gateBlocked: true, lastGates: [green, target] })).toEqual({ passed: false, blocking: [target], onlyTargets: true });
    expect(endVerdict({ gateBlocked: true, lastGates: [regressed, target] })).toMatchObject({ blocking: [regressed, target], onlyTargets: false });
    // A judge's FAIL on green gates: failed, with no gate to name.
    expect(endVerdict({ gateBlocked: true, lastGates: [green] })).toEqual({ passed: false, blocking: [], onlyTargets: false });
    expect(endVerdict({ gateBlocked: false, lastGates: [green] }).passed).toBe(true);
  });
});
