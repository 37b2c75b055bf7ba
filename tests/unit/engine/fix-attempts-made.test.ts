import { describe, expect, it } from "vitest";
import { fixAttemptsMade } from "../../../src/state/pipeline.js";

describe("fixAttemptsMade", () => {
  it("counts the gate's blocks that dev has worked on", () => {
    expect(fixAttemptsMade({ fixAttempts: 0, gateBlocked: false })).toBe(0); // passed at once
    expect(fixAttemptsMade({ fixAttempts: 1, gateBlocked: true })).toBe(0); // blocked once, dev not yet back
    expect(fixAttemptsMade({ fixAttempts: 1, gateBlocked: false })).toBe(1); // one fix, then passed
    // maxFixAttempts 1, the gate still red after the fix: 2 blocks, 1 fix attempt (as the run's reason says).
    expect(fixAttemptsMade({ fixAttempts: 2, gateBlocked: true })).toBe(1);
  });
});
