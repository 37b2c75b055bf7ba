import { describe, expect, it } from "vitest";
import { DEFAULT_WORKFLOW } from "../../../src/workflow/default.js";
import { withApprovals } from "../../../src/workflow/approve.js";
import type { Workflow } from "../../../src/workflow/schema.js";
import { validateWorkflow } from "../../../src/workflow/validate.js";

const agentIds = new Set(["analyst", "pm", "architect", "dev", "tea", "reviewer"]);
const ctx = { agentIds, gateNames: null, approve: [] };

describe("validateWorkflow", () => {
  it("accepts the default pipeline, also with approvals", () => {
    expect(validateWorkflow(DEFAULT_WORKFLOW, ctx)).toEqual([]);
    expect(validateWorkflow(withApprovals(DEFAULT_WORKFLOW, ["architect", "pm"]), { ...ctx, approve: ["architect", "pm"] })).toEqual([]);
  });

  it("reports every problem at once, each with its config path", () => {
    const bad: Workflow = {
      nodes: {
        analyst: { kind: "agent" },
        coder: { kind: "agent", agent: "kodr" },
        triage: { kind: "switch", cases: [] },
        orphan: { kind: "agent", agent: "dev" },
        check: { kind: "gate", gates: ["lint"] },
      },
      edges: [
        { from: "start", to: "analyst" },
        { from: "analyst", to: "triage" },
        { from: "triage", to: "coder", case: "default" },
        { from: "coder", to: "missing" },
        { from: "coder", to: "end", when: "is_done" },
        { from: "orphan", to: "end" },
        { from: "check", to: "end" },
      ],
    };
    const problems = validateWorkflow(bad, { ...ctx, gateNames: ["test"] });
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^workflow\.nodes\.coder\.agent: unknown agent "kodr"/),
        "workflow.nodes.triage.cases: a switch needs at least one case",
        'workflow.nodes.check.gates[0]: no gate named "lint" in `gates` (test)',
        'workflow.edges[3].to: no node "missing"',
        expect.stringMatching(/^workflow\.edges\[4\]\.when: flag "is_done" is not declared/),
        'workflow.nodes.orphan: unreachable from "start"',
        'workflow.nodes.check: unreachable from "start"',
      ]),
    );
    expect(problems.length).toBeGreaterThanOrEqual(7);
  });

  it("refuses a cycle without a bound, and accepts it bounded by fix_attempts_remain or maxVisits", () => {
    const loop = (bound: "none" | "attempts-without-gate" | "attempts" | "visits"): Workflow => ({
      nodes: {
        dev: { kind: "agent" },
        reviewer: {
          kind: "agent",
          sets: ["changes_requested"],
          ...(bound === "visits" ? { maxVisits: 3 } : {}),
          ...(bound === "attempts" ? { gates: true } : {}),
        },
      },
      edges: [
        { from: "start", to: "dev" },
        { from: "dev", to: "reviewer" },
        { from: "reviewer", to: "dev", when: bound.startsWith("attempts") ? "changes_requested && fix_attempts_remain" : "changes_requested" },
        { from: "reviewer", to: "end" },
      ],
    });
    const unbounded =
      "workflow.edges: the cycle dev → reviewer → dev has no bound; set maxVisits on one of its nodes, or condition one of its edges on fix_attempts_remain with a gate check (a gate node or an agent with gates) in the loop";
    expect(validateWorkflow(loop("none"), ctx)).toEqual([unbounded]);
    // fix_attempts_remain only bounds a loop in which a gate check counts the attempts.
    expect(validateWorkflow(loop("attempts-without-gate"), ctx)).toEqual([unbounded]);
    expect(validateWorkflow(loop("attempts"), ctx)).toEqual([]);
    expect(validateWorkflow(loop("visits"), ctx)).toEqual([]);
  });

  it("checks switch edges against the declared cases", () => {
    const wf: Workflow = {
      nodes: {
        triage: {
          kind: "switch",
          cases: [
            { route: "bug", when: "a defect" },
            { route: "feature", when: "new" },
          ],
        },
        dev: { kind: "agent" },
      },
      edges: [
        { from: "start", to: "triage" },
        { from: "triage", to: "dev", case: "bug" },
        { from: "triage", to: "dev", case: "chore" },
        { from: "triage", to: "end" },
        { from: "dev", to: "end" },
      ],
    };
    expect(validateWorkflow(wf, ctx)).toEqual(
      expect.arrayContaining([
        'workflow.nodes.triage.cases[1]: no edge serves case "feature"; add { from: "triage", to: …, case: "feature" }',
        'workflow.edges[2].case: "chore" is not a case of switch "triage"',
        expect.stringMatching(/^workflow\.edges\[3\]: an edge leaving switch "triage" needs a case/),
      ]),
    );
  });

  it("requires a fallback edge, one start edge, and reserved names unused", () => {
    const wf: Workflow = {
      nodes: { escalate: { kind: "agent", agent: "dev" }, dev: { kind: "agent" } },
      edges: [
        { from: "start", to: "dev" },
        { from: "start", to: "escalate" },
        { from: "dev", to: "end", when: "gate_blocked" },
        { from: "escalate", to: "end" },
      ],
    };
    expect(validateWorkflow(wf, ctx)).toEqual(
      expect.arrayContaining([
        'workflow.nodes.escalate: "escalate" is reserved; choose another node id',
        'workflow.nodes.dev: no unconditional edge leaves it; add a fallback edge (for example to "end")',
        'workflow.edges: exactly one edge must leave "start" (found 2)',
      ]),
    );
  });

  it("checks approve targets", () => {
    expect(validateWorkflow(DEFAULT_WORKFLOW, { ...ctx, approve: ["designer"] })).toEqual(['approve[0]: "designer" is not an agent node of the workflow']);
  });
});
