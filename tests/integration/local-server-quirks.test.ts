import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { HumanMessage, SystemMessage } from "@langchain/core/messages";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { runAgentLoop } from "../../src/agents/runner.js";
import { LimitError, ProviderError } from "../../src/errors.js";
import type { EventBody } from "../../src/events/schema.js";
import { toProviderError } from "../../src/llm/errors.js";
import { createChatModel } from "../../src/llm/model.js";
import { TOOLS } from "../../src/tools/registry.js";
import { startMockOpenAI, type ScriptedReply } from "../helpers/mock-openai.js";
import { noticeText } from "../../src/cli/wording/notice-text.js";

// Servers and models that do not speak OpenAI's tool calling exactly, through the real ChatOpenAI client.

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

const ADD = "export function add(a, b) {\n  return a + b;\n}\n";
const WRITE = { name: "write_file", arguments: { path: "src/add.js", content: ADD } };
const HANDOFF = { name: "handoff", arguments: { summary: "done" } };
const tag = (v: unknown) => `<tool_call>\n${JSON.stringify(v)}\n</tool_call>`;

async function agentAgainst(replies: ScriptedReply[], maxReminders = 3) {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "yolo-quirks-")));
  const mock = await startMockOpenAI(replies);
  cleanups.push(
    () => mock.close(),
    () => fs.rmSync(root, { recursive: true, force: true }),
  );
  const model = createChatModel({ name: "qwen2.5-coder:7b", baseURL: mock.url, apiKey: null, temperature: null, maxRetries: 0, timeoutS: 5 });
  const schema = z.object({ summary: z.string() });
  const events: EventBody[] = [];
  try {
    const result = await runAgentLoop({
      node: "dev",
      model,
      messages: [new SystemMessage("You are the dev agent."), new HumanMessage("Add add(a, b) to src/add.js")],
      tools: Object.values(TOOLS),
      handoff: { schema, jsonSchema: z.toJSONSchema(schema) as Record<string, unknown> },
      toolContext: { root, commandTimeoutS: 5, outputCapBytes: 4096, readCapBytes: 4096, env: {}, secretEnvNames: [] },
      maxTurns: 8,
      maxReminders,
      emit: (e) => events.push(e),
      record: () => {},
      classifyError: (error) => toProviderError(error, { apiKeyEnv: "K", baseURL: mock.url, model: "qwen2.5-coder:7b" }),
      noticeWords: noticeText,
    });
    return { root, mock, result, error: null, events };
  } catch (error) {
    return { root, mock, result: null, error, events };
  }
}

const written = (root: string) => (fs.existsSync(path.join(root, "src/add.js")) ? fs.readFileSync(path.join(root, "src/add.js"), "utf8") : null);

describe("tool calls in the reply text (vLLM without a tool-call parser, Hermes/Qwen models)", () => {
  it("<tool_call> tags run as calls, checked like native ones; the next request carries them as tool_calls and results", async () => {
    const r = await agentAgainst([{ content: `I'll create the file.\n${tag(WRITE)}` }, { content: JSON.stringify(HANDOFF) }]);
    expect(r.error).toBeNull();
    expect(r.result?.handoff).toEqual({ summary: "done" });
    expect(written(r.root)).toBe(ADD);
    const second = r.mock.requests[1].messages;
    const assistant = second.find((m: { role: string }) => m.role === "assistant");
    expect(assistant.content).toBe("I'll create the file.");
    expect(assistant.tool_calls.map((c: { function: { name: string } }) => c.function.name)).toEqual(["write_file"]);
    expect(second.at(-1)).toMatchObject({ role: "tool", tool_call_id: assistant.tool_calls[0].id });
    expect(r.events.filter((e) => e.type === "warning" && /wrote its tool calls in its reply text/.test(e.message))).toHaveLength(1);
    // A fact the loop hands to the front end's words: the CLI names the command that checks the server.
    expect(r.events.find((e) => e.type === "warning")).toMatchObject({ message: expect.stringContaining("(<tool_call> tags)") });
    expect(r.events.find((e) => e.type === "warning")).toMatchObject({ message: expect.stringMatching(/\(see yolo doctor\)\.$/) });
  });

  it("arguments that break the tool's schema go back to the model as a tool error, nothing runs", async () => {
    const r = await agentAgainst([{ content: tag({ name: "write_file", arguments: { path: 42 } }) }, { content: tag(HANDOFF) }]);
    expect(r.error).toBeNull();
    expect(written(r.root)).toBeNull();
    expect(r.mock.requests[1].messages.at(-1).content).toMatch(/^Error: write_file arguments are invalid: path/);
  });

  it("a call quoted in prose, or shown in a code sample, is not executed", async () => {
    const r = await agentAgainst([
      { toolCalls: [{ name: "list_files", args: { path: "." } }] },
      { content: `The format is ${tag(WRITE)} and I will not use it yet.` },
      { content: `Example:\n\`\`\`\n${tag(WRITE)}\n\`\`\`` },
      { toolCalls: [{ name: "handoff", args: { summary: "nothing written" } }] },
    ]);
    expect(r.error).toBeNull();
    expect(written(r.root)).toBeNull();
    expect(r.mock.requests).toHaveLength(4);
  });

  it("native tool calls win: text in a reply that also has native calls is only text", async () => {
    const r = await agentAgainst([{ content: tag(WRITE), toolCalls: [{ name: "handoff", args: { summary: "native" } }] }]);
    expect(r.result?.handoff).toEqual({ summary: "native" });
    expect(written(r.root)).toBeNull();
  });

  it("tool-call syntax the server never parsed, turn after turn: a provider error naming the fix, after one reminder", async () => {
    const broken = { content: "<|python_tag|>write_file.call(path='src/add.js')" };
    const r = await agentAgainst([broken, broken, broken, broken]);
    expect(r.error).toBeInstanceOf(ProviderError);
    expect((r.error as Error).message).toMatch(/--enable-auto-tool-choice --tool-call-parser hermes/);
    expect(r.mock.requests).toHaveLength(2);
  });

  it("plain prose from a model that never called a tool: one reminder, then the turns limit with the tool-calling advice", async () => {
    const prose = { content: "I would add the function." };
    const r = await agentAgainst([prose, prose, prose, prose]);
    expect(r.error).toBeInstanceOf(LimitError);
    expect((r.error as Error).message).toMatch(/answered 2 times without calling a tool.*If this model never calls tools/s);
    expect(r.mock.requests).toHaveLength(2);
  });
});

describe("local servers' streaming quirks (Ollama, llama.cpp server, LM Studio)", () => {
  it.each([
    ["whole tool calls in one chunk, finish_reason stop, no usage (Ollama)", { toolCallsInOneChunk: true, finishReason: "stop", noUsage: true }],
    ["tool-call deltas without index (llama.cpp server)", { noIndex: true, noUsage: true }],
    ["one chunk, no index, finish_reason stop", { toolCallsInOneChunk: true, noIndex: true, finishReason: "stop", noUsage: true }],
  ])("%s: the calls run; usage is estimated and marked", async (_label, wire) => {
    const r = await agentAgainst([
      { toolCalls: [{ name: "write_file", args: WRITE.arguments }], wire },
      { toolCalls: [{ name: "handoff", args: HANDOFF.arguments }], wire },
    ]);
    expect(r.error).toBeNull();
    expect(written(r.root)).toBe(ADD);
    expect(r.result?.handoff).toEqual({ summary: "done" });
    const usage = r.events.filter((e) => e.type === "usage");
    expect(usage).toHaveLength(2);
    for (const u of usage) expect(u.type === "usage" && u.usage).toMatchObject({ estimated: true, calls: 1 });
    expect(r.result?.usage.estimated).toBe(true);
    expect(r.result?.usage.promptTokens).toBeGreaterThan(10);
  });

  it("two tool calls in one chunk: both run, in order", async () => {
    const wire = { toolCallsInOneChunk: true, finishReason: "stop", noUsage: true };
    const r = await agentAgainst([
      {
        toolCalls: [
          { name: "write_file", args: WRITE.arguments },
          { name: "read_file", args: { path: "src/add.js" } },
        ],
        wire,
      },
      { toolCalls: [{ name: "handoff", args: HANDOFF.arguments }], wire },
    ]);
    expect(r.error).toBeNull();
    const results = r.mock.requests[1].messages.filter((m: { role: string }) => m.role === "tool");
    expect(results).toHaveLength(2);
    expect(results[1].content).toContain("return a + b");
  });

  it("reported usage is not marked estimated, and reasoning tokens are counted", async () => {
    const r = await agentAgainst([
      { toolCalls: [{ name: "handoff", args: HANDOFF.arguments }], usage: { prompt_tokens: 100, completion_tokens: 50 }, wire: { reasoningTokens: 30 } },
    ]);
    const [u] = r.events.filter((e) => e.type === "usage");
    expect(u.type === "usage" && u.usage).toEqual({
      promptTokens: 100,
      completionTokens: 50,
      totalTokens: 150,
      calls: 1,
      cachedTokens: 0,
      reasoningTokens: 30,
    });
  });
});
