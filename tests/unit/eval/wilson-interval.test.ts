import { describe, expect, it } from "vitest";
import { summarize, wilsonInterval } from "../../../src/eval/summary.js";
import type { TaskResult } from "../../../src/eval/types.js";

describe("the resolve rate's 95% Wilson interval", () => {
  it("matches published values and stays inside [0, 1]", () => {
    // 0 of 10: the interval is not [0, 0] — ten failures do not prove the rate is zero.
    const [lo0, hi0] = wilsonInterval(0, 10);
    expect(lo0).toBe(0);
    expect(hi0).toBeCloseTo(0.2775, 3);
    const [lo, hi] = wilsonInterval(8, 10);
    expect(lo).toBeCloseTo(0.4902, 3);
    expect(hi).toBeCloseTo(0.9433, 3);
    expect(wilsonInterval(10, 10)[1]).toBe(1);
    expect(wilsonInterval(0, 0)).toEqual([0, 1]);
  });

  it("counts errors as not resolved and averages cost and time over the resolved tasks only", () => {
    const r = (verdict: TaskResult["verdict"], cost: number, wallMs: number): TaskResult => ({
      task: "t",
      model: "m",
      verdict,
      reason: "",
      thread: null,
      exitCode: 0,
      tokens: 10,
      cost,
      wallMs,
      fixAttempts: 0,
      tamperAttempts: verdict === "unresolved" ? 1 : 0,
      tamper: [],
      failingTargets: [],
      failingGuards: [],
      tests: "hidden",
    });
    const [s] = summarize([r("resolved", 1, 1000), r("resolved", 3, 3000), r("unresolved", 9, 9000), r("error", 0, 5)], ["m"]);
    expect(s).toMatchObject({ tasks: 4, resolved: 2, unresolved: 1, errors: 1, resolveRate: 0.5, meanCostPerResolved: 2, meanWallMsPerResolved: 2000 });
    expect(s).toMatchObject({ totalTokens: 40, totalCost: 13, tamperAttempts: 1, tasksWithTamper: 1 });
  });
});
