import { describe, expect, it, vi } from "vitest";
import { loadConfigFile } from "../../../src/config/load.js";
import { resolveConfig } from "../../../src/config/resolve.js";
import type { ResolvedConfig, UserConfig } from "../../../src/config/schema.js";
import { initCommand } from "../../../src/cli/commands/init.js";
import { buildWorkflowGraph } from "../../../src/engine/graph.js";
import { inertDeps } from "../../../src/engine/inspect.js";
import { configForProfile } from "../../../src/engine/modes.js";
import { BASELINE_NODE } from "../../../src/engine/nodes/gate-baseline.js";
import { BUILT_IN_FLAGS } from "../../../src/workflow/conditions.js";
import { workflowEdges } from "../../../src/workflow/mermaid.js";
import type { Workflow, WorkflowNode } from "../../../src/workflow/schema.js";
import { validateWorkflow } from "../../../src/workflow/validate.js";
import { project } from "../../helpers/per-test.js";

// `yolo graph` draws a workflow without compiling it (LangGraph costs most of the command's start-up). That every
// arrow it draws is an edge of the graph a run compiles is a property of our code, not of the user's input: it is
// checked here, by compiling every workflow we ship or test and many generated ones.

const AGENTS = new Set(["analyst", "pm", "architect", "dev", "tea"]);

/** The drawn arrows the compiled graph lacks (none, for a drawing that never shows a path a run cannot take). */
async function drawnButNotCompiled(config: ResolvedConfig, compiledFrom = config): Promise<string[]> {
  const compiled = (await buildWorkflowGraph(inertDeps(compiledFrom)).getGraphAsync({})).edges;
  // The gate baseline sits between the start and the first node; the drawing shows the workflow's own edges.
  const known = new Set(compiled.map((e) => `${e.source === BASELINE_NODE ? "__start__" : e.source}->${e.target}`));
  return workflowEdges(config.workflow)
    .map((e) => `${e.from}->${e.to}`)
    .filter((e) => !known.has(e));
}

const configOf = (fileConfig: UserConfig) => resolveConfig({ root: "/tmp/p", fileConfig, file: null, env: {} });

// Every kind of node and edge: switch cases with a default to the end, a gate loop, a human review sending work
// back, a human step without one, an edge after the fallback (never taken).
const KINDS: Workflow = {
  nodes: {
    triage: {
      kind: "switch",
      prompt: "bug or feature?",
      cases: [
        { route: "bug", when: "broken" },
        { route: "feature", when: "new" },
      ],
    },
    analyst: { kind: "agent" },
    fixer: { kind: "agent", agent: "dev", sets: ["done"], maxVisits: 4 },
    writer: { kind: "agent", agent: "pm" },
    review: { kind: "human", prompt: "Check the stories", reviews: "writer" },
    signoff: { kind: "human", prompt: "Ship it?" },
    tests: { kind: "gate", maxVisits: 4 },
    tea: { kind: "agent", gates: true },
  },
  edges: [
    { from: "start", to: "triage" },
    { from: "triage", to: "fixer", case: "bug" },
    { from: "triage", to: "analyst", case: "feature" },
    { from: "triage", to: "end", case: "default" },
    { from: "analyst", to: "writer" },
    { from: "writer", to: "review" },
    { from: "review", to: "signoff" },
    { from: "signoff", to: "end" },
    { from: "fixer", to: "tests", when: "done" },
    { from: "fixer", to: "end" },
    { from: "tests", to: "fixer", when: "gate_blocked && fix_attempts_remain" },
    { from: "tests", to: "tea" },
    { from: "tests", to: "end" },
    { from: "tea", to: "fixer", when: "gate_blocked && fix_attempts_remain" },
    { from: "tea", to: "end" },
  ],
};

// The triage workflow the custom-workflow integration test runs (a switch in front of the default roles).
const TRIAGE: Workflow = {
  nodes: {
    triage: {
      kind: "switch",
      prompt: "bug fix or feature?",
      cases: [
        { route: "bug", when: "fixes" },
        { route: "feature", when: "adds" },
      ],
    },
    analyst: { kind: "agent" },
    dev: { kind: "agent" },
    tea: { kind: "agent", gates: true },
  },
  edges: [
    { from: "start", to: "triage" },
    { from: "triage", to: "dev", case: "bug" },
    { from: "triage", to: "analyst", case: "feature" },
    { from: "triage", to: "end", case: "default" },
    { from: "analyst", to: "dev" },
    { from: "dev", to: "tea" },
    { from: "tea", to: "dev", when: "gate_blocked && fix_attempts_remain" },
    { from: "tea", to: "end" },
  ],
};

// A small seeded generator (the same workflows on every run) of workflows the validator accepts: each node falls
// through to a later one or the end, conditional edges and switch cases go anywhere (loops bounded by maxVisits).
function* generatedWorkflows(count: number): Generator<Workflow> {
  let seed = 0x9e3779b9;
  const rand = (n: number) => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) % n;
  };
  const pick = <T>(xs: readonly T[]): T => xs[rand(xs.length)];
  let made = 0;
  for (let attempt = 0; made < count && attempt < count * 50; attempt++) {
    const ids = Array.from({ length: 2 + rand(5) }, (_, i) => `n${i}`);
    // One in ten has no agent at all (gates, switches and human steps only): it compiles without an escalate node.
    const agentless = !rand(10);
    const kinds = ids.map((_, i) =>
      i === 0 && !agentless ? "agent" : pick(agentless ? (["gate", "switch", "human"] as const) : (["agent", "agent", "gate", "switch", "human"] as const)),
    );
    const agents = ids.filter((_, i) => kinds[i] === "agent");
    const flags = [...BUILT_IN_FLAGS, "ok", "!ok && gate_blocked", "fix_attempts_remain && !needs_architecture"];
    const nodes: Record<string, WorkflowNode> = {};
    ids.forEach((id, i) => {
      const kind = kinds[i];
      nodes[id] =
        kind === "agent"
          ? { kind, agent: pick([...AGENTS]), ...(i === 0 ? { sets: ["ok"] } : {}), maxVisits: 3 }
          : kind === "gate"
            ? { kind, maxVisits: 3 }
            : kind === "switch"
              ? {
                  kind,
                  cases: [
                    { route: "a", when: "one" },
                    { route: "b", when: "other" },
                  ],
                  maxVisits: 3,
                }
              : { kind, prompt: "check", ...(agents.length && rand(2) ? { reviews: pick(agents) } : {}), maxVisits: 3 };
    });
    const anywhere = [...ids, "end"];
    const later = (i: number) => (rand(3) ? (ids[i + 1] ?? "end") : pick([...ids.slice(i + 1), "end"]));
    const edges: Workflow["edges"] = [{ from: "start", to: ids[0] }];
    ids.forEach((id, i) => {
      if (kinds[i] === "switch") {
        for (const c of ["a", "b"]) edges.push({ from: id, to: pick(anywhere), case: c });
        edges.push({ from: id, to: later(i), case: "default" });
        return;
      }
      for (let n = rand(3); n > 0; n--) edges.push({ from: id, to: pick(anywhere), when: pick(flags) });
      edges.push({ from: id, to: later(i) });
      if (!rand(4)) edges.push({ from: id, to: pick(anywhere) });
    });
    const workflow: Workflow = { nodes, edges };
    if (validateWorkflow(workflow, { agentIds: AGENTS, gateNames: null, approve: [] }).length) continue;
    made++;
    yield workflow;
  }
}

describe("every arrow `yolo graph` draws is an edge of the compiled graph", () => {
  it.each([
    ["the default pipeline (stories in parallel)", {}],
    ["the default pipeline with an approval step", { approve: ["pm"] }],
    ["the default pipeline with approvals after every role", { approve: ["analyst", "pm", "architect", "dev", "tea"] }],
    ["every kind of node and edge", { workflow: KINDS }],
    ["the triage workflow", { workflow: TRIAGE }],
    ["a custom workflow with approvals", { workflow: TRIAGE, approve: ["analyst", "dev"] }],
  ] as [string, UserConfig][])("%s", async (_, fileConfig) => {
    const config = configOf(fileConfig);
    expect(validateWorkflow(config.workflow, { agentIds: AGENTS, gateNames: null, approve: config.approve })).toEqual([]);
    expect(workflowEdges(config.workflow).length).toBeGreaterThan(3);
    expect(await drawnButNotCompiled(config)).toEqual([]);
  });

  it("agent and chat threads' one-node workflows", async () => {
    for (const profile of [{ mode: "agent", agentId: "dev" } as const, { mode: "chat" } as const]) {
      expect(await drawnButNotCompiled(configForProfile(configOf({}), profile))).toEqual([]);
    }
  });

  it("the workflow `yolo init` scaffolds, loaded from the file it writes", async ({ onTestFinished }) => {
    const root = project(onTestFinished);
    const out = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
    try {
      expect(await initCommand({ cwd: root })).toBe(0);
    } finally {
      out.mockRestore();
    }
    const { file, config: fileConfig } = await loadConfigFile(root);
    expect(file).toMatch(/yolo\.config\.ts$/);
    expect(fileConfig.workflow).toBeDefined();
    expect(await drawnButNotCompiled(resolveConfig({ root, fileConfig, file, env: {} }))).toEqual([]);
  });

  it("200 generated workflows the validator accepts", async () => {
    let checked = 0;
    let agentless = 0;
    for (const workflow of generatedWorkflows(200)) {
      const missing = await drawnButNotCompiled(configOf({ workflow }));
      expect(missing, JSON.stringify(workflow)).toEqual([]);
      checked++;
      if (Object.values(workflow.nodes).every((n) => n.kind !== "agent")) agentless++;
    }
    expect(checked).toBe(200);
    // Workflows without an agent compile too (they have no escalate node).
    expect(agentless).toBeGreaterThan(2);
  });

  it("the check does catch an arrow the compiled graph lacks (a control for the cases above)", async () => {
    // The drawing of one workflow against the graph compiled from another.
    expect((await drawnButNotCompiled(configOf({ workflow: KINDS }), configOf({}))).length).toBeGreaterThan(5);
  });
});
