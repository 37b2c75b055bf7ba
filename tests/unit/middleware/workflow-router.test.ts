import { describe, expect, it } from "vitest";
import { workflowRouter } from "../../../src/middleware/workflow-router.js";
import { deepFreeze, mwState, runState } from "./fixtures.js";

const layers = (s: ReturnType<typeof workflowRouter>) => s.prompt!.map((m) => m.layer);

describe("workflowRouter", () => {
  it("composes every layer in run mode", () => {
    const out = workflowRouter(deepFreeze(mwState()));
    expect(out.mode).toBe("run");
    expect(layers(out)).toEqual(["runtime-rules", "tool-policy", "persona", "run-directive", "node-brief", "user-input"]);
    expect(out.phase).toEqual({ node: "dev", fixAttempt: 0, completed: false });
  });

  it("reads the fix attempt from the run", () => {
    const out = workflowRouter(mwState({ run: runState({ gateBlocked: true, fixAttempts: 2 }) }));
    expect(out.phase!.fixAttempt).toBe(2);
    expect(out.prompt!.find((m) => m.layer === "run-directive")!.content).toContain("fix attempt 2 of 3");
  });

  it("drops the node brief once the run has completed", () => {
    const out = workflowRouter(mwState({ runCompleted: true }));
    expect(layers(out)).toEqual(["runtime-rules", "tool-policy", "persona", "run-directive", "user-input"]);
    expect(out.phase!.completed).toBe(true);
  });

  it("drops the run directive and node brief in agent mode, and also the persona in chat mode", () => {
    const agent = workflowRouter(mwState({ requestedMode: "agent", userInput: "explain src/add.js" }));
    expect(layers(agent)).toEqual(["runtime-rules", "tool-policy", "persona", "user-input"]);
    const chat = workflowRouter(mwState({ requestedMode: "chat", userInput: "hello" }));
    expect(layers(chat)).toEqual(["runtime-rules", "tool-policy", "user-input"]);
    expect(chat.warnings).toEqual([]);
  });

  it("falls back to chat with a warning for an unknown or missing mode", () => {
    const unknown = workflowRouter(mwState({ requestedMode: "turbo" }));
    expect(unknown.mode).toBe("chat");
    expect(unknown.warnings).toEqual(['unknown or missing mode "turbo"; falling back to chat']);
    const missing = workflowRouter(mwState({ requestedMode: undefined }));
    expect(missing.mode).toBe("chat");
    expect(missing.warnings[0]).toContain("unknown or missing mode null");
  });
});
