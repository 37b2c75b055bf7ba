import { describe, expect, it } from "vitest";
import { toolSelector } from "../../../src/middleware/tool-selector.js";
import { workflowRouter } from "../../../src/middleware/workflow-router.js";
import type { MiddlewareState } from "../../../src/middleware/types.js";
import { deepFreeze, mwState } from "./fixtures.js";

function withContext(patch: Partial<MiddlewareState["settings"]["context"]>, state: Partial<MiddlewareState> = {}): MiddlewareState {
  const base = mwState(state);
  return workflowRouter({ ...base, settings: { ...base.settings, context: { ...base.settings.context, ...patch } } });
}

describe("toolSelector", () => {
  it("keeps the agent's allow-list in run mode", () => {
    const out = toolSelector(deepFreeze(withContext({}, { agent: { persona: "P", tools: ["read_file", "run_command"] } })));
    expect(out.availableTools).toEqual(["read_file", "run_command"]);
  });

  it("narrows by mode: chat reads and searches only", () => {
    const out = toolSelector(withContext({}, { requestedMode: "chat" }));
    expect(out.availableTools).toEqual(["read_file", "list_files", "search_files"]);
  });

  it("narrows by the role's permissions (agent id first, then role) and by disabled tools", () => {
    const byId = toolSelector(withContext({ rolePermissions: { dev: ["read_file", "edit_file", "run_command"] }, disabledTools: ["run_command"] }));
    expect(byId.availableTools).toEqual(["read_file", "edit_file"]);
    const byRole = toolSelector(withContext({ rolePermissions: { dev: ["list_files"] } }, { agentId: "fixer" }));
    expect(byRole.availableTools).toEqual(["list_files"]);
  });

  it("rewrites the tool-policy layer to the selected tools", () => {
    const out = toolSelector(withContext({ disabledTools: ["run_command", "write_file", "edit_file"] }));
    const policy = out.prompt!.find((m) => m.layer === "tool-policy")!.content;
    expect(policy).toContain("`read_file`, `list_files`, `search_files`, and `handoff`");
    expect(policy).not.toContain("run_command runs");
  });

  it("leaves only handoff when nothing is allowed", () => {
    const out = toolSelector(withContext({ rolePermissions: { dev: [] } }));
    expect(out.availableTools).toEqual([]);
    expect(out.prompt!.find((m) => m.layer === "tool-policy")!.content).toContain("Tools available to you: none, and `handoff`.");
  });
});
