import { describe, expect, it } from "vitest";
import { PipelineState, type PipelineStateType } from "../../../src/state/pipeline.js";
import { workflowRouter } from "../../../src/middleware/workflow-router.js";
import type { MiddlewareState } from "../../../src/middleware/types.js";
import { composePrompt } from "../../../src/prompt/compose.js";
import { BUILT_IN_ROLES } from "../../../src/roles/registry.js";
import type { AnyRole } from "../../../src/roles/types.js";

function state(patch: Partial<PipelineStateType> = {}): PipelineStateType {
  const defaults = Object.fromEntries(
    Object.entries(PipelineState.spec).map(([key, channel]) => {
      const c = channel as unknown as { initialValueFactory?: () => unknown; value?: unknown };
      return [key, c.initialValueFactory ? c.initialValueFactory() : c.value];
    }),
  );
  return { ...defaults, requirement: "Add add()", ...patch } as PipelineStateType;
}

const limits = { readCapBytes: 1000, outputCapBytes: 2000, commandTimeoutS: 30 };
const blocked = state({
  requirements: "R",
  acceptanceCriteria: ["c"],
  devSummary: "wrote add",
  filesChanged: ["src/add.js"],
  gateBlocked: true,
  fixAttempts: 2,
  verdict: "FAIL",
  findings: ["wrong sign"],
  notes: { reviewer: { summary: "looks off", findings: [], verdict: null } },
});
const ids = Object.keys(BUILT_IN_ROLES) as AnyRole[];

describe("roles looked up in the registry", () => {
  it.each(ids)("%s: the engine's role object and the role's id give the same prompt, fix-attempt directive included", (id) => {
    for (const s of [state(), blocked]) {
      const input = { persona: "P", tools: [], maxFixAttempts: 3, limits, projectSummary: null, state: s, node: id };
      expect(composePrompt({ ...input, role: BUILT_IN_ROLES[id] })).toEqual(composePrompt({ ...input, role: id }));
    }
    const directive = composePrompt({ persona: "P", tools: [], maxFixAttempts: 3, limits, projectSummary: null, state: blocked, role: BUILT_IN_ROLES[id] })[3]
      .content;
    expect(directive.includes("This is fix attempt 2 of 3")).toBe(id === "dev" || id === "custom");
  });

  it("the router counts a fix attempt for every role but the gate judge, given as an object", () => {
    const base = {
      node: "n",
      agentId: "n",
      flags: [],
      pipeline: ["n"],
      run: blocked,
      agent: { persona: "P", tools: [] },
      root: "/",
      modelName: "m",
      messages: [],
      warnings: [],
      requestedMode: "run",
    };
    const settings = { maxFixAttempts: 3, limits, context: {} } as unknown as MiddlewareState["settings"];
    expect(workflowRouter({ ...base, settings, role: BUILT_IN_ROLES.tea }).phase?.fixAttempt).toBe(0);
    expect(workflowRouter({ ...base, settings, role: BUILT_IN_ROLES.dev }).phase?.fixAttempt).toBe(2);
  });
});
