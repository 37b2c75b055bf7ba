import type { AIMessage, AIMessageChunk } from "@langchain/core/messages";

/** Token counts of one model call, or a running total. */
export interface TokenUsage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
}

export const ZERO_USAGE: TokenUsage = Object.freeze({ promptTokens: 0, completionTokens: 0, totalTokens: 0 });

/** Reads a reply's `usage_metadata`; zeros when the server reported none. */
export function usageOf(message: AIMessage | AIMessageChunk): TokenUsage {
  const u = message.usage_metadata;
  const promptTokens = u?.input_tokens ?? 0;
  const completionTokens = u?.output_tokens ?? 0;
  return { promptTokens, completionTokens, totalTokens: u?.total_tokens ?? promptTokens + completionTokens };
}

/** Sums two usages. */
export function addUsage(a: TokenUsage, b: TokenUsage): TokenUsage {
  return {
    promptTokens: a.promptTokens + b.promptTokens,
    completionTokens: a.completionTokens + b.completionTokens,
    totalTokens: a.totalTokens + b.totalTokens,
  };
}
