import { HumanMessage, type AIMessageChunk } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { ReplyChunks } from "../../src/agents/reply-chunks.js";
import { collectCalls } from "../../src/agents/runner.js";
import { createChatModel } from "../../src/llm/model.js";
import { startMockOpenAI, type ScriptedReply } from "../helpers/mock-openai.js";
import { cleanupsAfterEach } from "../helpers/cleanups.js";

const cleanups = cleanupsAfterEach();

const words = (n: number) => Array.from({ length: n }, (_, i) => (i % 12 === 11 ? `w${i}\n` : `w${i} `)).join("");

// ReplyChunks re-implements part of LangChain's chunk fold: on real streams from the real client, it must give what
// folding every chunk with `concat` gives, for every field the agent loop reads.
const REPLIES: [string, ScriptedReply][] = [
  ["a text flood", { content: words(600), contentChunks: 600 }],
  [
    "text then tool calls, with usage",
    {
      content: words(40),
      contentChunks: 40,
      toolCalls: [
        { name: "write_file", args: { path: "a.js", content: "x" } },
        { name: "handoff", args: { summary: "s" } },
      ],
      usage: { prompt_tokens: 12, completion_tokens: 34, cached_tokens: 5 },
    },
  ],
  [
    "tool calls without index, no usage",
    { content: words(10), contentChunks: 10, toolCalls: [{ name: "read_file", args: { path: "b" } }], wire: { noIndex: true, noUsage: true } },
  ],
  ["tool calls whole in one chunk", { content: "", toolCalls: [{ name: "handoff", args: { summary: "s" } }], wire: { toolCallsInOneChunk: true } }],
];

async function chunksOf(api: "chat" | "responses", reply: ScriptedReply): Promise<AIMessageChunk[]> {
  const mock = await startMockOpenAI(() => reply);
  cleanups.push(() => mock.close());
  const model = createChatModel({ name: "gpt-4o-mini", baseURL: mock.url, apiKey: "k", temperature: null, maxRetries: 0, timeoutS: 5, api });
  const bound = model.bindTools!([{ type: "function", function: { name: "handoff", description: "d", parameters: { type: "object", properties: {} } } }]);
  const out: AIMessageChunk[] = [];
  for await (const chunk of await bound.stream([new HumanMessage("go")])) out.push(chunk as AIMessageChunk);
  return out;
}

const readFields = (m: AIMessageChunk) => ({
  content: m.content,
  id: m.id,
  tool_call_chunks: m.tool_call_chunks,
  tool_calls: m.tool_calls,
  invalid_tool_calls: m.invalid_tool_calls,
  usage_metadata: m.usage_metadata,
});

describe("ReplyChunks against LangChain's own concat", () => {
  for (const api of ["chat", "responses"] as const) {
    for (const [name, reply] of REPLIES) {
      it(`${api}: ${name}`, async () => {
        const chunks = await chunksOf(api, reply);
        expect(chunks.length).toBeGreaterThan(1);
        const folded = chunks.reduce((a, b) => a.concat(b));
        const joined = new ReplyChunks();
        for (const c of chunks) joined.add(c);
        const fast = joined.result()!;
        expect(readFields(fast)).toEqual(readFields(folded));
        expect(collectCalls(fast)).toEqual(collectCalls(folded));
      });
    }
  }

  it("is empty until a chunk comes", () => {
    expect(new ReplyChunks().result()).toBeUndefined();
  });
});
