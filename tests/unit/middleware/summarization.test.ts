import { AIMessage, HumanMessage, SystemMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { applySummary, planCompaction, SUMMARY_HEADING, summarization, summaryRequest } from "../../../src/middleware/summarization.js";
import { contextWindowFor, estimateTokens, FALLBACK_CONTEXT_WINDOW, knownContextWindow } from "../../../src/middleware/tokens.js";
import { deepFreeze, mwState } from "./fixtures.js";

/** An opening prompt and `turns` tool turns, each a call and a result of `size` characters. */
function transcript(turns: number, size = 2000): BaseMessage[] {
  return [
    new SystemMessage("rules"),
    new SystemMessage("persona"),
    new HumanMessage("the task"),
    ...Array.from({ length: turns }, (_, i) => [
      new AIMessage({ content: `turn ${i}`, tool_calls: [{ id: `c${i}`, name: "read_file", args: { path: `f${i}` }, type: "tool_call" as const }] }),
      new ToolMessage({ tool_call_id: `c${i}`, content: `${i}:${"y".repeat(size)}` }),
    ]).flat(),
  ];
}

/** Every tool result follows the assistant message that made its call. */
function pairsIntact(messages: BaseMessage[]): boolean {
  return messages.every((m, i) => {
    if (m.getType() !== "tool") return true;
    const id = (m as ToolMessage).tool_call_id;
    let j = i - 1;
    while (j >= 0 && messages[j].getType() === "tool") j--;
    return j >= 0 && ((messages[j] as AIMessage).tool_calls ?? []).some((c) => c.id === id);
  });
}

describe("summarization", () => {
  it("does nothing under the threshold", () => {
    expect(planCompaction(transcript(3), 100_000)).toBeNull();
    expect(summarization(mwState({ messages: transcript(3) })).compaction).toBeNull();
  });

  it("does nothing before the first assistant turn, however long the prompt", () => {
    expect(planCompaction([new SystemMessage("s".repeat(40_000)), new HumanMessage("task")], 1000)).toBeNull();
  });

  it("replaces older turns, keeping the opening prompt, the latest turns and every call with its results", () => {
    const messages = deepFreeze(transcript(10));
    const threshold = 3000;
    const plan = planCompaction(messages, threshold)!;
    expect(plan.start).toBe(3);
    expect(messages[plan.end].getType()).toBe("ai");
    const compacted = applySummary(messages, plan, "read f0..f6");
    expect(compacted.slice(0, 3)).toEqual(messages.slice(0, 3));
    expect(compacted[3].content).toContain(SUMMARY_HEADING);
    expect(compacted[3].content).toContain("read f0..f6");
    expect(compacted.at(-1)).toBe(messages.at(-1));
    expect(pairsIntact(compacted)).toBe(true);
    expect(estimateTokens(compacted)).toBeLessThan(threshold);
    expect(messages).toHaveLength(23);
  });

  it("never splits a call from its results, even with several results per call", () => {
    const multi: BaseMessage[] = [
      new SystemMessage("rules"),
      new HumanMessage("task"),
      ...Array.from({ length: 6 }, (_, i) => [
        new AIMessage({
          content: "",
          tool_calls: [
            { id: `a${i}`, name: "read_file", args: {}, type: "tool_call" as const },
            { id: `b${i}`, name: "read_file", args: {}, type: "tool_call" as const },
          ],
        }),
        new ToolMessage({ tool_call_id: `a${i}`, content: "z".repeat(3000) }),
        new ToolMessage({ tool_call_id: `b${i}`, content: "z".repeat(3000) }),
      ]).flat(),
    ];
    const plan = planCompaction(multi, 5000)!;
    expect(multi[plan.end].getType()).toBe("ai");
    expect(pairsIntact(applySummary(multi, plan, "s"))).toBe(true);
  });

  it("always keeps the latest turn, even when it alone is over the threshold", () => {
    const messages = transcript(3, 40_000);
    const plan = planCompaction(messages, 1000)!;
    expect(plan.end).toBe(messages.length - 2);
  });

  it("merges an earlier summary into the next one, but never summarizes a lone summary again", () => {
    const summary = new HumanMessage(`${SUMMARY_HEADING}\nold`);
    const lone = [new SystemMessage("s"), new HumanMessage("task"), summary, new AIMessage("y".repeat(40_000))];
    expect(planCompaction(lone, 1000)).toBeNull();
    const more = [...lone.slice(0, 3), new AIMessage("a".repeat(8000)), new AIMessage("y".repeat(4000))];
    expect(planCompaction(more, 2000)).toMatchObject({ start: 2, end: 4 });
  });

  it("uses the configured fraction of the model's context window", () => {
    const messages = transcript(10); // ~5,500 tokens
    const at = (summarizeAt: number, window: number) =>
      summarization(
        mwState({
          messages,
          modelName: "m",
          settings: { ...mwState().settings, context: { ...mwState().settings.context, summarizeAt, contextWindows: { m: window } } },
        }),
      ).compaction;
    expect(at(0.7, 10_000)).toBeNull();
    expect(at(0.5, 10_000)).not.toBeNull();
    expect(at(0.7, 6_000)).not.toBeNull();
  });

  it("asks the model for a summary of exactly the replaced turns, fenced as data", () => {
    const messages = transcript(10);
    const plan = planCompaction(messages, 3000)!;
    const request = summaryRequest(messages, plan, "dev");
    expect(request[0].content).toContain("You are the summarizer agent of yolo");
    const body = String(request[1].content);
    expect(body.startsWith('<data source="earlier turns">')).toBe(true);
    expect(body).toContain("turn 0");
    expect(body).not.toContain(`turn 9`);
  });
});

describe("contextWindowFor", () => {
  it("prefers the configured window, then a known default, then the fallback", () => {
    expect(contextWindowFor("gpt-4o-mini", { "gpt-4o-mini": 5000 })).toBe(5000);
    expect(contextWindowFor("gpt-4o-mini")).toBe(128_000);
    expect(contextWindowFor("openai/gpt-4.1-mini")).toBe(1_047_576);
    expect(contextWindowFor("my-local-model")).toBe(FALLBACK_CONTEXT_WINDOW);
  });

  it("knows a window equal to the fallback as known (qwen), not as assumed", () => {
    expect(knownContextWindow("qwen2.5-coder:14b")).toBe(32_768);
    expect(knownContextWindow("my-local-model")).toBeNull();
  });
});
