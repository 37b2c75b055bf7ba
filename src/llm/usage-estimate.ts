import type { AIMessageChunk, BaseMessage } from "@langchain/core/messages";
import type { Usage } from "../events/schema.js";

/** Characters a token, roughly, for English and code: the same measure the summarization middleware uses. */
const CHARS_PER_TOKEN = 4;
const MESSAGE_OVERHEAD = 4;

/**
 * The usage of one call whose server reported none (llama.cpp server, older Ollama and LM Studio do not stream
 * it): estimated from what was sent and received, and marked `estimated` so no view presents it as the provider's.
 */
export function estimateUsage(sent: readonly BaseMessage[], reply: AIMessageChunk): Usage {
  const promptTokens = sent.reduce((n, m) => n + tokens(textOf(m)) + MESSAGE_OVERHEAD, 0);
  const calls = (reply.tool_call_chunks ?? []).map((c) => `${c.name ?? ""}${c.args ?? ""}`).join("");
  const completionTokens = tokens(`${typeof reply.content === "string" ? reply.content : JSON.stringify(reply.content)}${calls}`);
  return { promptTokens, completionTokens, totalTokens: promptTokens + completionTokens, calls: 1, cachedTokens: 0, estimated: true };
}

function textOf(m: BaseMessage): string {
  const content = typeof m.content === "string" ? m.content : JSON.stringify(m.content);
  const calls = "tool_calls" in m && Array.isArray(m.tool_calls) && m.tool_calls.length ? JSON.stringify(m.tool_calls) : "";
  return content + calls;
}

function tokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}
