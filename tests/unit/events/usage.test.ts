import { AIMessageChunk } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { addUsage, usageOfReply, ZERO_USAGE } from "../../../src/events/usage.js";

// The one usage module (events/usage.ts): the state's reducer and the reading of a reply's usage_metadata.
describe("token usage", () => {
  it("adds usages, counting calls, and keeps reasoning tokens and the estimate mark only where one side has them", () => {
    const a = { promptTokens: 1, completionTokens: 2, totalTokens: 3, calls: 1, cachedTokens: 1 };
    expect(addUsage(a, a)).toEqual({ promptTokens: 2, completionTokens: 4, totalTokens: 6, calls: 2, cachedTokens: 2 });
    expect(addUsage(a, { ...a, reasoningTokens: 5, estimated: true })).toMatchObject({ reasoningTokens: 5, estimated: true });
    expect(addUsage(ZERO_USAGE, a)).toEqual(a);
  });

  it("adds a checkpoint's usage written before cachedTokens existed", () => {
    const old = { promptTokens: 1, completionTokens: 1, totalTokens: 2, calls: 1 } as unknown as typeof ZERO_USAGE;
    expect(addUsage(old, old).cachedTokens).toBe(0);
  });

  it("reads a reply without usage metadata as one call of zero tokens", () => {
    expect(usageOfReply(new AIMessageChunk({ content: "x" }).usage_metadata)).toEqual({
      promptTokens: 0,
      completionTokens: 0,
      totalTokens: 0,
      calls: 1,
      cachedTokens: 0,
    });
  });
});
