import { AIMessage, HumanMessage, SystemMessage, ToolMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { MIDDLEWARE, runMiddleware } from "../../../src/middleware/stack.js";
import type { MiddlewareState } from "../../../src/middleware/types.js";
import { deepFreeze, input } from "./fixtures.js";

describe("the middleware stack", () => {
  it("runs context loader → workflow router → tool selector → summarization", () => {
    expect(MIDDLEWARE.map((m) => m.name)).toEqual(["context-loader", "workflow-router", "tool-selector", "summarization"]);
  });

  it("calls the steps in that order, each seeing what the earlier ones wrote", () => {
    const seen: string[] = [];
    const spied = MIDDLEWARE.map(({ name, step }) => ({
      name,
      step: (s: MiddlewareState) => {
        seen.push(`${name}:${[s.projectSummary !== undefined, s.prompt !== undefined, s.availableTools !== undefined].join(",")}`);
        return step(s);
      },
    }));
    runMiddleware(input(), spied);
    expect(seen).toEqual([
      "context-loader:false,false,false",
      "workflow-router:true,false,false",
      "tool-selector:true,true,false",
      "summarization:true,true,true",
    ]);
  });

  it("composes from the loaded context, narrows the router's tool policy, and never mutates its input", () => {
    const frozen = deepFreeze(input({ settings: { ...input().settings, context: { ...input().settings.context, disabledTools: ["run_command"] } } }));
    const out = runMiddleware(frozen);
    expect(out.mode).toBe("run");
    expect(out.availableTools).not.toContain("run_command");
    const policy = out.prompt!.find((m) => m.layer === "tool-policy")!.content;
    expect(policy).not.toContain("run_command");
    expect(out.compaction).toBeNull();
    expect(out.warnings).toEqual([]);
  });

  it("plans a compaction when the transcript passed the threshold", () => {
    const big = "x".repeat(4000);
    const messages = [
      new SystemMessage("rules"),
      new HumanMessage("task"),
      ...Array.from({ length: 6 }, (_, i) => [
        new AIMessage({ content: "", tool_calls: [{ id: `c${i}`, name: "read_file", args: { path: "a" }, type: "tool_call" as const }] }),
        new ToolMessage({ tool_call_id: `c${i}`, content: big }),
      ]).flat(),
    ];
    const out = runMiddleware(
      input({ messages, settings: { ...input().settings, context: { ...input().settings.context, contextWindows: { "gpt-4o-mini": 4000 } } } }),
    );
    expect(out.compaction).not.toBeNull();
  });
});
