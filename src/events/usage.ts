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

/** The usage LangChain reports for one model reply (`usage_metadata`), as one call. */
export function usageOfReply(metadata: UsageMetadataLike | undefined): Usage {
  return {
    promptTokens: metadata?.input_tokens ?? 0,
    completionTokens: metadata?.output_tokens ?? 0,
    totalTokens: metadata?.total_tokens ?? 0,
    calls: 1,
    cachedTokens: metadata?.input_token_details?.cache_read ?? 0,
    ...(metadata?.output_token_details?.reasoning ? { reasoningTokens: metadata.output_token_details.reasoning } : {}),
  };
}

/** The slice of LangChain's `UsageMetadata` yolo reads (kept local: events do not import LangChain). */
export interface UsageMetadataLike {
  input_tokens?: number;
  output_tokens?: number;
  total_tokens?: number;
  input_token_details?: { cache_read?: number };
  output_token_details?: { reasoning?: number };
}
