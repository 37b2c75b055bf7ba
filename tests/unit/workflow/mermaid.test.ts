import { describe, expect, it } from "vitest";
import { DEFAULT_WORKFLOW } from "../../../src/workflow/default.js";
import { drawWorkflowMermaid, MERMAID_NAMES } from "../../../src/workflow/mermaid.js";
import { DEFAULT_CASE, END_NODE, START_NODE, type Workflow } from "../../../src/workflow/schema.js";

const arrows = (workflow: Workflow) =>
  drawWorkflowMermaid(workflow)
    .split("\n")
    .filter((l) => l.includes("->"));

// A workflow with every kind of node: a switch with cases, a gate, a human review, and a node whose edges are all conditional.
const TRIAGE: Workflow = {
  nodes: {
    triage: { kind: "switch", cases: [{ route: "bug", when: "a bug report" }] },
    fixer: { kind: "agent", agent: "dev", sets: ["done"] },
    writer: { kind: "agent", agent: "pm" },
    review: { kind: "human", prompt: "Check the stories", reviews: "writer" },
    tests: { kind: "gate" },
  },
  edges: [
    { from: "start", to: "triage" },
    { from: "triage", to: "fixer", case: "bug" },
    { from: "triage", to: "writer", case: "default" },
    { from: "writer", to: "review" },
    { from: "review", to: "end" },
    { from: "fixer", to: "tests", when: "done" },
    { from: "tests", to: "fixer", when: "gate_blocked && fix_attempts_remain" },
    { from: "tests", to: "end" },
  ],
};

describe("yolo graph's Mermaid", () => {
  it("draws the default workflow as it runs: solid unconditional edges, labelled conditions, no spurious ends", () => {
    expect(arrows(DEFAULT_WORKFLOW)).toEqual([
      "\t__start__ --> analyst;",
      "\tanalyst --> pm;",
      '\tpm -.->|"needs_architecture"| architect;',
      '\tpm -->|"otherwise"| dev;',
      "\tarchitect --> dev;",
      "\tdev --> tea;",
      '\ttea -.->|"gate_blocked && fix_attempts_remain"| dev;',
      '\ttea -->|"otherwise"| __end__;',
    ]);
    const text = drawWorkflowMermaid(DEFAULT_WORKFLOW);
    expect(text.split("\n").slice(0, 2)).toEqual(["%%{init: {'flowchart': {'curve': 'linear'}}}%%", "graph TD;"]);
    expect(text).toContain('\tescalate{{"escalate: an agent that asks a human waits here; the answer goes back to that agent"}}:::note');
    expect(text).not.toMatch(/-> escalate|escalate -/);
  });

  it("labels switch cases, a rejected review, and the implicit end of a node whose conditions may all fail", () => {
    expect(arrows(TRIAGE)).toEqual([
      "\t__start__ --> triage;",
      '\ttriage -.->|"bug"| fixer;',
      '\ttriage -.->|"default"| writer;',
      '\tfixer -.->|"done"| tests;',
      '\tfixer -.->|"otherwise"| __end__;',
      "\twriter --> review;",
      '\treview -.->|"rejected"| writer;',
      '\treview -->|"approved"| __end__;',
      '\ttests -.->|"gate_blocked && fix_attempts_remain"| fixer;',
      '\ttests -->|"otherwise"| __end__;',
    ]);
    const text = drawWorkflowMermaid(TRIAGE);
    expect(text).toContain("\ttriage{triage}");
    expect(text).toContain("\treview[/review/]");
    expect(text).toContain("\ttests[[tests]]");
  });

  it("spells the workflow's reserved names as the schema does (it does not import them, to stay free of zod)", () => {
    expect(MERMAID_NAMES).toEqual({ start: START_NODE, end: END_NODE, defaultCase: DEFAULT_CASE });
  });
});
