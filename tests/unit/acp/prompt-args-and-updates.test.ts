import { describe, expect, it } from "vitest";
import { promptArgs } from "../../../src/acp/child-args.js";
import { EventTranslator } from "../../../src/acp/event-updates.js";
import type { YoloEvent } from "../../../src/events/schema.js";

const at = (patch: Partial<Parameters<typeof promptArgs>[0]>) => ({ threadId: "t1", mode: "run", status: "passed", waiting: null, ...patch });

describe("what a prompt runs", () => {
  it("a new run, an answer, a rejection with the prompt as reason, a follow-up, or a resume", () => {
    expect(promptArgs(at({ threadId: null, status: null }), "-x").args).toEqual(["run", "--json", "--json-tokens", "--ci", "--", "-x"]);
    expect(promptArgs(at({ status: "waiting", waiting: "question" }), "ints").args).toEqual([
      "resume",
      "t1",
      "--answer",
      "ints",
      "--json",
      "--json-tokens",
      "--ci",
    ]);
    expect(promptArgs(at({ status: "waiting", waiting: "approval" }), "no").args).toEqual([
      "resume",
      "t1",
      "--reject",
      "no",
      "--json",
      "--json-tokens",
      "--ci",
    ]);
    expect(promptArgs(at({ mode: "chat" }), "and?").args).toEqual(["resume", "t1", "--json", "--json-tokens", "--ci", "--", "and?"]);
    expect(promptArgs(at({ status: "interrupted" }), "go on")).toEqual({ args: ["resume", "t1", "--json", "--json-tokens", "--ci"], usesText: false });
    expect(promptArgs(at({ status: "failed" }), "next").args).toEqual(["run", "--json", "--json-tokens", "--ci", "--", "next"]);
  });
});

describe("events as session updates", () => {
  const base = { v: 1, thread: "t1", ts: "2026-01-01T00:00:00Z" } as const;
  it("a story's tool calls keep their own ids, and stories replace the nodes as the plan", () => {
    const t = new EventTranslator("/repo");
    t.updates({ ...base, type: "run.started", requirement: "r", model: "m", resumed: false, nodes: ["pm", "dev"], logFile: "l" } as YoloEvent);
    const a = t.updates({ ...base, story: "s1", type: "tool.called", node: "dev", tool: "write_file", callId: "c1", args: '{"path":"a.js"}' } as YoloEvent)[0];
    const b = t.updates({ ...base, story: "s2", type: "tool.called", node: "dev", tool: "write_file", callId: "c1", args: '{"path":"b.js"}' } as YoloEvent)[0];
    expect(a).toMatchObject({ sessionUpdate: "tool_call", kind: "edit", locations: [{ path: "/repo/a.js" }] });
    expect((a as { toolCallId: string }).toolCallId).not.toBe((b as { toolCallId: string }).toolCallId);
    const plan = t.updates({ ...base, type: "story.started", story: "s1", title: "Add numbers", dependsOn: [], branch: "x" } as YoloEvent)[0];
    expect(plan).toEqual({ sessionUpdate: "plan", entries: [{ content: "Add numbers", priority: "medium", status: "in_progress" }] });
  });

  it("streamed words are message chunks headed by their agent, thinking is thought chunks, and a reply is not said twice", () => {
    const t = new EventTranslator("/repo");
    const chunk = (text: string) => ({ sessionUpdate: "agent_message_chunk", content: { type: "text", text } });
    expect(t.updates({ ...base, type: "thought", node: "dev", text: "hmm" } as YoloEvent)).toEqual([
      { sessionUpdate: "agent_thought_chunk", content: { type: "text", text: "hmm" } },
    ]);
    expect(t.updates({ ...base, type: "token", node: "dev", text: "I will" } as YoloEvent)).toEqual([chunk("_dev:_ I will")]);
    expect(t.updates({ ...base, type: "token", node: "dev", text: " add it" } as YoloEvent)).toEqual([chunk(" add it")]);
    expect(t.updates({ ...base, type: "token", node: "tea", text: "Checking" } as YoloEvent)).toEqual([chunk("\n\n_tea:_ Checking")]);
    expect(t.updates({ ...base, type: "reply", node: "tea", text: "Checking" } as YoloEvent)).toEqual([]);
    expect(t.updates({ ...base, type: "node.completed", node: "tea", summary: "ok" } as YoloEvent).slice(0, 2)).toEqual([
      chunk("\n\n"),
      chunk("**tea**: ok\n\n"),
    ]);
    expect(t.updates({ ...base, type: "reply", node: "pm", text: "Plan" } as YoloEvent)).toEqual([chunk("Plan\n\n")]);
  });
});
