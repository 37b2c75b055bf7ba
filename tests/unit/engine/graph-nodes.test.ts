import { describe, expect, it } from "vitest";
import { resolveConfig } from "../../../src/config/resolve.js";
import { buildWorkflowGraph } from "../../../src/engine/graph.js";
import { inertDeps } from "../../../src/engine/inspect.js";
import { BASELINE_NODE } from "../../../src/engine/nodes/gate-baseline.js";
import { BASELINE_NODE_NAME, configForProfile, graphNodeNames } from "../../../src/engine/thread-profile.js";

// The checkpoint reader trusts a trigger only for a node the thread's graph has: graphNodeNames must list exactly those.
const base = resolveConfig({ root: "/nonexistent/project", fileConfig: {}, file: null, env: {} });
const custom = resolveConfig({
  root: "/nonexistent/project",
  fileConfig: {
    workflow: {
      nodes: { dev: { kind: "agent" }, check: { kind: "gate" }, review: { kind: "human", reviews: "dev" } },
      edges: [
        { from: "start", to: "dev" },
        { from: "dev", to: "check" },
        { from: "check", to: "review" },
        { from: "review", to: "end" },
      ],
    },
  } as never,
  file: null,
  env: {},
});

const agentless = resolveConfig({
  root: "/nonexistent/project",
  fileConfig: {
    workflow: {
      nodes: { check: { kind: "gate" }, review: { kind: "human" } },
      edges: [
        { from: "start", to: "check" },
        { from: "check", to: "review" },
        { from: "review", to: "end" },
      ],
    },
  } as never,
  file: null,
  env: {},
});

describe("graphNodeNames lists the nodes buildWorkflowGraph compiles", () => {
  it.each([
    ["the default pipeline", base],
    ["an approval", resolveConfig({ root: "/nonexistent/project", fileConfig: { approve: ["pm"] } as never, file: null, env: {} })],
    ["a custom workflow", custom],
    ["a workflow without agents (no escalate node)", agentless],
    ["an agent thread", configForProfile(base, { mode: "agent", agentId: "dev" })],
    ["a chat thread", configForProfile(base, { mode: "chat" })],
  ])("%s", (_, config) => {
    const compiled = Object.keys(buildWorkflowGraph(inertDeps(config)).nodes);
    expect([...graphNodeNames(config)].sort()).toEqual(compiled.sort());
  });

  it("names the gate baseline as its node module does", () => {
    expect(BASELINE_NODE_NAME).toBe(BASELINE_NODE);
  });
});
