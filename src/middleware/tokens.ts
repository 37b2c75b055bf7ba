import type { BaseMessage } from "@langchain/core/messages";

/** Per-message overhead of the chat format (role, separators), in tokens. */
const MESSAGE_OVERHEAD = 4;

/**
 * A rough token count (about four characters a token): no tokenizer download, the same answer offline and in tests.
 * Tool calls count with their arguments.
 */
export function estimateTokens(messages: readonly BaseMessage[]): number {
  let total = 0;
  for (const m of messages) total += messageTokens(m);
  return total;
}

export function messageTokens(m: BaseMessage): number {
  const content = typeof m.content === "string" ? m.content : JSON.stringify(m.content);
  const calls = "tool_calls" in m && Array.isArray(m.tool_calls) && m.tool_calls.length ? JSON.stringify(m.tool_calls) : "";
  return Math.ceil((content.length + calls.length) / 4) + MESSAGE_OVERHEAD;
}

/** Context windows of common models, matched by name prefix (longest first); unknown models get a conservative 32k. */
const KNOWN_WINDOWS: [string, number][] = [
  ["gpt-4.1", 1_047_576],
  ["gpt-4o", 128_000],
  ["gpt-4-turbo", 128_000],
  ["gpt-5", 400_000],
  ["o1", 200_000],
  ["o3", 200_000],
  ["o4", 200_000],
  ["claude", 200_000],
  ["gemini", 1_048_576],
  ["qwen", 32_768],
  ["llama", 8_192],
];
export const FALLBACK_CONTEXT_WINDOW = 32_768;

/** The context window of a model: configured per model name, else a known default, else the fallback. */
export function contextWindowFor(model: string, configured: Readonly<Record<string, number>> = {}): number {
  if (configured[model] !== undefined) return configured[model];
  return knownContextWindow(model) ?? FALLBACK_CONTEXT_WINDOW;
}

/**
 * The built-in window for a model name (a provider prefix `org/` and a tag `:14b` do not matter), or null when the
 * table does not know it. Separate from the fallback: qwen's 32k is known, not assumed, though the numbers agree.
 */
export function knownContextWindow(model: string): number | null {
  const name = model.toLowerCase().replace(/^.*\//, "");
  const known = [...KNOWN_WINDOWS].sort((a, b) => b[0].length - a[0].length).find(([prefix]) => name.startsWith(prefix));
  return known ? known[1] : null;
}
