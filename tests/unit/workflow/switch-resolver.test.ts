import { describe, expect, it } from "vitest";
import type { WorkflowEdge } from "../../../src/workflow/schema.js";
import { resolveSwitch } from "../../../src/workflow/switch.js";

const edges: WorkflowEdge[] = [
  { from: "start", to: "triage" },
  { from: "triage", to: "fix", case: "bug" },
  { from: "triage", to: "build", case: "feature" },
  { from: "triage", to: "ask", case: "default" },
];
const cases = ["bug", "feature"];

describe("resolveSwitch", () => {
  it("takes the edge of an exact case", () => {
    expect(resolveSwitch("triage", cases, edges, "bug")).toEqual({ to: "fix", taken: "bug", fallback: null, warning: null });
    expect(resolveSwitch("triage", cases, edges, "feature").to).toBe("build");
  });

  it("takes default when the model chose default", () => {
    expect(resolveSwitch("triage", cases, edges, "default")).toEqual({ to: "ask", taken: "default", fallback: null, warning: null });
  });

  it.each([
    ["an unknown case", "refactor", '"refactor" is not one of the cases'],
    ["a near miss in case", "Bug", '"Bug" is not one of the cases'],
    ["an empty answer", "", "the model answered an empty case"],
    ["a number", 3, "the model answered a number, not a case"],
    ["a list", ["bug"], "the model answered a list, not a case"],
    ["no call at all", undefined, "the model made no switch_decision"],
    ["null", null, "the model made no switch_decision"],
  ])("falls back to default on %s", (_name, raw, why) => {
    expect(resolveSwitch("triage", cases, edges, raw)).toEqual({ to: "ask", taken: "default", fallback: why, warning: null });
  });

  it("without a default edge takes the first edge of the node, with a warning", () => {
    const noDefault = edges.filter((e) => e.case !== "default");
    const r = resolveSwitch("triage", cases, noDefault, "nonsense");
    expect(r).toMatchObject({ to: "fix", taken: "default", fallback: '"nonsense" is not one of the cases' });
    expect(r.warning).toMatch(/no default edge; took its first edge \(to fix\)/);
  });

  it("a declared case without an edge also falls back", () => {
    expect(resolveSwitch("triage", ["bug", "chore"], edges, "chore").to).toBe("ask");
  });
});
