import { describe, expect, it } from "vitest";
import { parseAgentFile } from "../../../src/agents/frontmatter.js";
import { resolveConfig } from "../../../src/config/resolve.js";
import { fanOutOf } from "../../../src/engine/stories/fan-out.js";
import { ROLE_CATALOG, ROLES } from "../../../src/roles/catalog.js";
import { handoffFields } from "../../../src/roles/handoff-schema.js";
import { BUILT_IN_ROLES, roleOf } from "../../../src/roles/registry.js";
import { DEFAULT_WORKFLOW } from "../../../src/workflow/default.js";
import { validateWorkflow } from "../../../src/workflow/validate.js";

const file = (extra: string) => `---\nname: A\ndescription: B\ntools: []\n${extra}\n---\nPersona.\n`;

describe("capabilities: the catalog's, and an agent file's own", () => {
  it("each built-in role's record carries its capabilities, and the lists come from the catalog", () => {
    const held = (id: string) =>
      (["fansOutStories", "judgesGates", "asksHuman", "writesCode"] as const).filter((key) => BUILT_IN_ROLES[id as keyof typeof BUILT_IN_ROLES][key] === true);
    expect(Object.fromEntries(ROLE_CATALOG.map((r) => [r.id, held(r.id)]))).toEqual({
      analyst: ["asksHuman"],
      pm: [],
      architect: [],
      custom: ["writesCode"],
      dev: ["fansOutStories", "writesCode"],
      tea: ["judgesGates"],
    });
    expect(ROLES).toEqual(["analyst", "pm", "architect", "dev", "tea"]);
    expect(Object.keys(DEFAULT_WORKFLOW.nodes)).toEqual([...ROLES]);
    expect(DEFAULT_WORKFLOW.nodes.tea).toEqual({ kind: "agent", gates: true });
  });

  it("the frontmatter takes known capabilities and names every bad one", () => {
    const ok = parseAgentFile(file("capabilities: [fans-out-stories]"));
    expect(ok.ok && ok.value.frontmatter.capabilities).toEqual(["fans-out-stories"]);
    const bad = parseAgentFile(file("capabilities: [fly, judges-gates, judges-gates]"));
    expect(bad.ok ? [] : bad.problems).toEqual([
      'capabilities[0]: "fly" is not a capability; known capabilities: fans-out-stories, judges-gates',
      'capabilities[2]: "judges-gates" is listed twice',
    ]);
    const both = parseAgentFile(file("capabilities: [fans-out-stories, judges-gates]"));
    expect(both.ok ? [] : both.problems).toEqual(["capabilities: an agent either builds stories or judges gates, not both; keep one"]);
    const notList = parseAgentFile(file("capabilities: fans-out-stories"));
    expect(notList.ok).toBe(false);
  });

  it("a judging agent plays the judging role; a fanning-out one keeps its handoff and gains the fan-out", () => {
    expect(roleOf("judge", false, { id: "judge", capabilities: ["judges-gates"] })).toBe(BUILT_IN_ROLES.tea);
    const builder = roleOf("builder", false, { id: "builder", capabilities: ["fans-out-stories"] });
    expect(builder.fansOutStories).toBe(true);
    expect(Object.keys(handoffFields(builder))).toEqual(Object.keys(handoffFields(BUILT_IN_ROLES.custom)));
    expect(roleOf("writer", false, { id: "writer" })).toBe(BUILT_IN_ROLES.custom);
  });
});

describe("which node fans out stories", () => {
  const base = resolveConfig({ root: "/nonexistent/project", fileConfig: {}, file: null, env: {} });
  const own = (nodes: Record<string, unknown>) =>
    resolveConfig({
      root: "/nonexistent/project",
      fileConfig: { workflow: { nodes, edges: [{ from: "start", to: Object.keys(nodes)[0] }] } } as never,
      file: null,
      env: {},
    });

  it("the default pipeline's dev; in a project's workflow only an agent whose file declares it", () => {
    expect(fanOutOf(base)).toEqual({ node: "dev", agentId: "dev" });
    expect(fanOutOf(own({ dev: { kind: "agent" } }))).toBeNull();
    const agents = new Map([["builder", { capabilities: ["fans-out-stories" as const] }]]);
    expect(fanOutOf(own({ dev: { kind: "agent" }, b: { kind: "agent", agent: "builder" } }), agents)).toEqual({ node: "b", agentId: "builder" });
  });

  it("validation: one fan-out node per workflow, and a judge declared by its file bounds a fix loop", () => {
    const ctx = { agentIds: new Set(["builder", "other", "judge"]), gateNames: null, approve: [] };
    const two = {
      nodes: { a: { kind: "agent" as const, agent: "builder" }, b: { kind: "agent" as const, agent: "other" } },
      edges: [
        { from: "start", to: "a" },
        { from: "a", to: "b" },
        { from: "b", to: "end" },
      ],
    };
    const caps = new Map([
      ["builder", ["fans-out-stories" as const]],
      ["other", ["fans-out-stories" as const]],
      ["judge", ["judges-gates" as const]],
    ]);
    expect(validateWorkflow(two, { ...ctx, agentCapabilities: caps })).toEqual([
      "workflow.nodes: a, b all fan out stories (their agents' `capabilities`); only one node of a workflow may",
    ]);
    const loop = {
      nodes: { a: { kind: "agent" as const, agent: "builder" }, j: { kind: "agent" as const, agent: "judge" } },
      edges: [
        { from: "start", to: "a" },
        { from: "a", to: "j" },
        { from: "j", to: "a", when: "gate_blocked && fix_attempts_remain" },
        { from: "j", to: "end" },
      ],
    };
    expect(validateWorkflow(loop, { ...ctx, agentCapabilities: caps })).toEqual([]);
    expect(validateWorkflow(loop, ctx)).toHaveLength(1);
  });
});

describe("the default workflow's edges come from the catalog", () => {
  it("each pipeline role to the next, a conditional step passed when its condition fails, the judge back to the coder", () => {
    expect(DEFAULT_WORKFLOW.edges).toEqual([
      { from: "start", to: "analyst" },
      { from: "analyst", to: "pm" },
      { from: "pm", to: "architect", when: "needs_architecture" },
      { from: "pm", to: "dev" },
      { from: "architect", to: "dev" },
      { from: "dev", to: "tea" },
      { from: "tea", to: "dev", when: "gate_blocked && fix_attempts_remain" },
      { from: "tea", to: "end" },
    ]);
  });
});
