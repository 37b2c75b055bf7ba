import type { Usage } from "./schema.js";

export const ZERO_USAGE: Usage = Object.freeze({ promptTokens: 0, completionTokens: 0, totalTokens: 0, calls: 0, cachedTokens: 0 });

/** Adds token usage; also the reducer of the state's usage channels (older checkpoints have no cachedTokens). */
export function addUsage(a: Usage, b: Usage): Usage {
  return {
    promptTokens: a.promptTokens + b.promptTokens,
    completionTokens: a.completionTokens + b.completionTokens,
    totalTokens: a.totalTokens + b.totalTokens,
    calls: a.calls + b.calls,
    cachedTokens: (a.cachedTokens ?? 0) + (b.cachedTokens ?? 0),
    // Only where a provider reports them, so totals of servers that do not stay as they were.
    ...(a.reasoningTokens || b.reasoningTokens ? { reasoningTokens: (a.reasoningTokens ?? 0) + (b.reasoningTokens ?? 0) } : {}),
    ...(a.estimated || b.estimated ? { estimated: true } : {}),
  };
}

/**
 * Per-call counts a real server cannot report: no context window is this large. A count past it, negative, NaN or
 * not a number is not usage but a broken (or hostile) server, and must not turn the token budget off.
 */
const MAX_TOKENS_PER_CALL = 100_000_000;

/** The usage LangChain reports for one model reply (`usage_metadata`), as one call; a count that is not plausible counts 0. */
export function usageOfReply(metadata: UsageMetadataLike | undefined): Usage {
  const promptTokens = count(metadata?.input_tokens);
  const completionTokens = count(metadata?.output_tokens);
  const reasoning = count(metadata?.output_token_details?.reasoning);
  return {
    promptTokens,
    completionTokens,
    totalTokens: Math.max(count(metadata?.total_tokens), promptTokens + completionTokens),
    calls: 1,
    cachedTokens: Math.min(count(metadata?.input_token_details?.cache_read), promptTokens),
    ...(reasoning ? { reasoningTokens: reasoning } : {}),
  };
}

/** The server's own usage when it reported some and its prompt and completion counts are plausible; null: estimate instead. */
export function reportedUsage(metadata: UsageMetadataLike | undefined): Usage | null {
  if (!metadata || !plausible(metadata.input_tokens) || !plausible(metadata.output_tokens)) return null;
  return usageOfReply(metadata);
}

function plausible(n: unknown): n is number {
  return typeof n === "number" && Number.isInteger(n) && n >= 0 && n <= MAX_TOKENS_PER_CALL;
}

function count(n: unknown): number {
  return plausible(n) ? n : 0;
}

/** The slice of LangChain's `UsageMetadata` yolo reads (kept local: events do not import LangChain). */
export interface UsageMetadataLike {
  input_tokens?: number;
  output_tokens?: number;
  total_tokens?: number;
  input_token_details?: { cache_read?: number };
  output_token_details?: { reasoning?: number };
}
