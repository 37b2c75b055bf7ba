import { describe, expect, it } from "vitest";
import { routeFrom } from "../../../src/engine/routing.js";
import { DEFAULT_WORKFLOW } from "../../../src/workflow/default.js";
import { gateResult } from "../../helpers/gate-result.js";

// routeFrom is the one router: the compiled graph's edges and the route events call it (the integration and
// e2e tests prove the compiled graph takes these branches).
const base = {
  escalateToHuman: false,
  needsArchitecture: false,
  gateBlocked: false,
  fixAttempts: 0,
  askedBy: null as string | null,
  flags: {},
  reviews: [],
  switchRoute: null,
};
const route = (node: string, patch: Partial<typeof base> = {}, max = 3) => routeFrom(node, DEFAULT_WORKFLOW, { ...base, ...patch }, max);

describe("routeFrom on the default workflow", () => {
  it("sends any agent that asked a human to escalate", () => {
    for (const node of ["analyst", "pm", "architect", "dev", "tea"]) expect(route(node, { escalateToHuman: true, gateBlocked: true }).to).toBe("escalate");
  });

  it("pm → architect only when architecture is needed", () => {
    expect(route("pm", { needsArchitecture: true })).toEqual({ to: "architect", reason: "architecture needed" });
    expect(route("pm")).toEqual({ to: "dev", reason: "no architecture needed" });
  });

  it("tea → dev while fix attempts remain, then end", () => {
    expect(route("tea", { gateBlocked: true, fixAttempts: 1 })).toEqual({ to: "dev", reason: "gate blocked, fix attempt 1/3" });
    expect(route("tea", { gateBlocked: true, fixAttempts: 3 }).to).toBe("dev");
    expect(route("tea", { gateBlocked: true, fixAttempts: 4 })).toEqual({ to: "end", reason: "no fix attempts left: 3/3 used" });
    expect(route("tea", { gateBlocked: true, fixAttempts: 1 }, 0).to).toBe("end");
    expect(route("tea")).toEqual({ to: "end", reason: "gate passed" });
  });

  it("never says 'gate passed' for a gate that failed without blocking, or when no gate ran", () => {
    const gate = (passed: boolean) => gateResult({ passed, exitCode: passed ? 0 : 1 });
    // Failures already there at the baseline do not block: the run goes on, but the gate did not pass.
    expect(routeFrom("tea", DEFAULT_WORKFLOW, { ...base, lastGates: [gate(true), { ...gate(false), blocking: false }] }, 3)).toEqual({
      to: "end",
      reason: "gate failed without blocking",
    });
    expect(routeFrom("tea", DEFAULT_WORKFLOW, { ...base, lastGates: [gate(true)] }, 3)).toEqual({ to: "end", reason: "gate passed" });
    expect(routeFrom("tea", DEFAULT_WORKFLOW, { ...base, lastGates: [] }, 3)).toEqual({ to: "end", reason: "no gate ran" });
  });

  it("escalate → the agent that asked", () => {
    expect(route("escalate", { askedBy: "dev" }).to).toBe("dev");
  });

  it("a human reviewer that rejects sends the work back to the agent it reviews", () => {
    const wf = {
      nodes: {
        architect: { kind: "agent" as const },
        approve_architect: { kind: "human" as const, prompt: "ok?", reviews: "architect" },
        dev: { kind: "agent" as const },
      },
      edges: [
        { from: "start", to: "architect" },
        { from: "architect", to: "approve_architect" },
        { from: "approve_architect", to: "dev" },
        { from: "dev", to: "end" },
      ],
    };
    const rejected = { ...base, reviews: [{ by: "approve_architect", node: "architect", action: "reject" as const, reason: "too big" }] };
    expect(routeFrom("approve_architect", wf, rejected, 3)).toEqual({ to: "architect", reason: "rejected: too big" });
    const approved = { ...base, reviews: [{ by: "approve_architect", node: "architect", action: "approve" as const, reason: null }] };
    expect(routeFrom("approve_architect", wf, approved, 3).to).toBe("dev");
  });

  it("branches on flags a custom agent sets", () => {
    const wf = {
      nodes: { reviewer: { kind: "agent" as const, sets: ["changes_requested"] }, dev: { kind: "agent" as const } },
      edges: [
        { from: "start", to: "dev" },
        { from: "dev", to: "reviewer" },
        { from: "reviewer", to: "dev", when: "changes_requested && fix_attempts_remain" },
        { from: "reviewer", to: "end" },
      ],
    };
    expect(routeFrom("reviewer", wf, { ...base, flags: { changes_requested: true } }, 3)).toEqual({
      to: "dev",
      reason: "changes_requested, fix attempts remain",
    });
    expect(routeFrom("reviewer", wf, { ...base, flags: { changes_requested: false } }, 3)).toEqual({ to: "end", reason: "not changes_requested" });
  });
});
