import { describe, expect, it } from "vitest";
import type { EngineDeps, WorkspaceHook } from "../../../src/engine/deps.js";
import { commitIteration } from "../../../src/engine/nodes/commit-step.js";
import type { PipelineStateType } from "../../../src/state/pipeline.js";

type Iteration = Parameters<WorkspaceHook["afterDev"]>[0];

function deps(calls: Iteration[], commit: string | null = "0123456789abcdef"): EngineDeps {
  const workspace: WorkspaceHook = { afterDev: async (it) => (calls.push(it), { commit }) };
  return { workspace } as unknown as EngineDeps;
}

const state = (over: Partial<PipelineStateType> = {}) =>
  ({ gateBlocked: false, fixAttempts: 0, stories: [{ title: "Add numbers" }], ...over }) as unknown as PipelineStateType;

describe("the dev node's commit step (--branch)", () => {
  it("numbers attempts: 1 for the first try, N+1 for the Nth fix attempt", async () => {
    const calls: Iteration[] = [];
    const base = { node: "dev", role: "dev" as const, summary: "wrote add", threadId: "t1" };
    expect(await commitIteration({ ...base, state: state(), deps: deps(calls) })).toBe(", committed 0123456");
    await commitIteration({ ...base, state: state({ gateBlocked: true, fixAttempts: 2 }), deps: deps(calls) });
    expect(calls).toEqual([
      { threadId: "t1", node: "dev", attempt: 1, stories: ["Add numbers"], summary: "wrote add" },
      { threadId: "t1", node: "dev", attempt: 3, stories: ["Add numbers"], summary: "wrote add" },
    ]);
  });

  it("does nothing for roles that do not write code, without a workspace, or when nothing was committed", async () => {
    const calls: Iteration[] = [];
    const base = { node: "tea", summary: "", threadId: "t1", state: state() };
    expect(await commitIteration({ ...base, role: "tea", deps: deps(calls) })).toBe("");
    expect(await commitIteration({ ...base, role: "analyst", deps: deps(calls) })).toBe("");
    expect(calls).toEqual([]);
    expect(await commitIteration({ ...base, role: "dev", deps: {} as EngineDeps })).toBe("");
    expect(await commitIteration({ ...base, role: "dev", deps: deps(calls, null) })).toBe("");
  });
});
