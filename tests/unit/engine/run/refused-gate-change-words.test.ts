import { describe, expect, it } from "vitest";
import type { GateResult } from "../../../../src/events/schema.js";
import { finalOutcome } from "../../../../src/engine/run/complete.js";
import type { PipelineStateType } from "../../../../src/state/pipeline.js";
import { gateResult } from "../../../helpers/gate-result.js";

// A run whose gate blocks on a refused gate change, after one fix attempt.
function refused(over: Partial<GateResult>): PipelineStateType {
  const gate = gateResult({ passed: true, exitCode: 0, blocking: true, gateChange: ['gate test: command changed from "npm test" to "true"'], ...over });
  return { mode: "run", reviews: [], conversation: [], gateBlocked: true, fixAttempts: 2, lastGates: [gate], verdict: "PASS" } as unknown as PipelineStateType;
}

describe("the reason a run ends on a refused gate change names who changed the gate", () => {
  it("the configuration", () => {
    expect(finalOutcome(refused({ gateChangeBy: "configuration" })).reason).toBe(
      `gate test still changed by the gate's configuration, refused (gate test: command changed from "npm test" to "true") after 1 fix attempt`,
    );
  });

  it("an agent, and a result from before the field was recorded", () => {
    for (const over of [{ gateChangeBy: "agent" as const }, {}])
      expect(finalOutcome(refused(over)).reason).toMatch(/^gate test still changed by an agent, refused/);
  });

  it("both", () => {
    expect(finalOutcome(refused({ gateChangeBy: "both" })).reason).toMatch(/^gate test still changed by the gate's configuration and an agent, refused/);
  });
});
