import { describe, expect, it } from "vitest";
import {
  END_ROUTE,
  routeAfterAnalyst,
  routeAfterArchitect,
  routeAfterDev,
  routeAfterEscalate,
  routeAfterPm,
  routeAfterTea,
} from "../../../src/engine/routers.js";
import type { GateResult } from "../../../src/events/schema.js";

// Routers are pure; the integration tests prove the compiled graph takes the same branches.
const base = {
  escalateToHuman: false,
  needsArchitecture: false,
  gateBlocked: false,
  fixAttempts: 0,
  askedBy: null,
  verdict: null,
  lastGates: [] as GateResult[],
};

const redGate: GateResult = {
  name: "test",
  command: "npm test",
  required: true,
  passed: false,
  exitCode: 1,
  timedOut: false,
  durationMs: 10,
  attempt: 1,
  passedCount: 1,
  failedCount: 1,
  failures: ["adds"],
  tail: "",
  logFile: null,
};

describe("routers", () => {
  it("send every agent to escalate when it asked a human", () => {
    const s = { ...base, escalateToHuman: true, needsArchitecture: true, gateBlocked: true };
    for (const route of [routeAfterAnalyst(s), routeAfterPm(s), routeAfterArchitect(s), routeAfterDev(s), routeAfterTea(s, 3)]) {
      expect(route.to).toBe("escalate");
    }
  });

  it("analyst → pm, architect → dev, dev → tea", () => {
    expect(routeAfterAnalyst(base).to).toBe("pm");
    expect(routeAfterArchitect(base).to).toBe("dev");
    expect(routeAfterDev(base).to).toBe("tea");
  });

  it("pm → architect only when architecture is needed", () => {
    expect(routeAfterPm({ ...base, needsArchitecture: true })).toEqual({ to: "architect", reason: "architecture needed" });
    expect(routeAfterPm(base)).toEqual({ to: "dev", reason: "no architecture needed" });
  });

  it("tea → end when the gate did not block", () => {
    expect(routeAfterTea({ ...base, verdict: "CONCERNS" }, 3)).toEqual({ to: END_ROUTE, reason: "gate passed (verdict CONCERNS)" });
  });

  it("tea → dev while fix attempts remain, naming the failed gate", () => {
    const s = { ...base, gateBlocked: true, fixAttempts: 1, lastGates: [redGate] };
    expect(routeAfterTea(s, 3)).toEqual({ to: "dev", reason: "gate failed: test; fix attempt 1/3" });
    expect(routeAfterTea({ ...s, fixAttempts: 3 }, 3).to).toBe("dev");
  });

  it("tea → end once the blocks outnumber the fix attempts", () => {
    const s = { ...base, gateBlocked: true, fixAttempts: 4, lastGates: [redGate] };
    expect(routeAfterTea(s, 3)).toEqual({ to: END_ROUTE, reason: "gate failed: test; no fix attempts left (3)" });
    expect(routeAfterTea({ ...s, fixAttempts: 1 }, 0).to).toBe(END_ROUTE);
  });

  it("names the verdict when the gates passed but tea failed the change", () => {
    const s = { ...base, gateBlocked: true, fixAttempts: 1, verdict: "FAIL" as const };
    expect(routeAfterTea(s, 3).reason).toBe("tea verdict FAIL; fix attempt 1/3");
  });

  it("escalate → the agent that asked", () => {
    expect(routeAfterEscalate({ ...base, askedBy: "dev" }).to).toBe("dev");
  });
});
