import { afterEach, describe, expect, it, vi } from "vitest";
import { type AIMessageChunk, HumanMessage, SystemMessage, ToolMessage, AIMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { z } from "zod";
import { createChatModel } from "../../../src/llm/model.js";
import { usageOfReply } from "../../../src/events/usage.js";
import { lastToolResults, roleOf, startMockOpenAI, type MockOpenAI } from "../../helpers/mock-openai.js";

// Drives the real ChatOpenAI against the scripted server: what yolo's agents will actually receive.

const writeFile = tool(async () => "ok", {
  name: "write_file",
  description: "Write a file",
  schema: z.object({ path: z.string(), content: z.string() }),
});

let mock: MockOpenAI | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
  vi.restoreAllMocks();
});

const modelFor = (m: MockOpenAI) => createChatModel({ name: "mock-model", baseURL: m.url, apiKey: null, temperature: null, maxRetries: 0, timeoutS: 5 });

// Streams a reply and returns every chunk plus their concatenation.
async function streamAll(m: MockOpenAI, input = "hi") {
  const chunks: AIMessageChunk[] = [];
  for await (const c of await modelFor(m).bindTools([writeFile]).stream(input)) chunks.push(c);
  const full = chunks.reduce((a, b) => a.concat(b));
  return { chunks, full };
}

describe("mock OpenAI server with the real ChatOpenAI", () => {
  it("streams content and a tool call whose arguments arrive in several chunks, with usage", async () => {
    mock = await startMockOpenAI([
      {
        content: "I will write the file now.",
        toolCalls: [{ name: "write_file", args: { path: "src/a.ts", content: "export const a = 1;\n" }, id: "call_1" }],
        usage: { prompt_tokens: 120, completion_tokens: 30 },
      },
    ]);
    const { chunks, full } = await streamAll(mock);

    expect(chunks.filter((c) => typeof c.content === "string" && c.content !== "").length).toBeGreaterThan(1);
    const argPieces = chunks.flatMap((c) => c.tool_call_chunks ?? []).filter((t) => t.args);
    expect(argPieces.length).toBeGreaterThan(1);
    expect(full.content).toBe("I will write the file now.");
    expect(full.tool_calls).toEqual([{ name: "write_file", args: { path: "src/a.ts", content: "export const a = 1;\n" }, id: "call_1", type: "tool_call" }]);
    expect(full.invalid_tool_calls).toEqual([]);
    // Usage arrives in its own final chunk (empty choices) because ChatOpenAI asks for include_usage.
    expect(full.usage_metadata).toMatchObject({ input_tokens: 120, output_tokens: 30, total_tokens: 150 });
    expect(usageOfReply(full.usage_metadata)).toEqual({ promptTokens: 120, completionTokens: 30, totalTokens: 150, calls: 1, cachedTokens: 0 });

    const sent = mock.requests[0];
    expect(sent.body.stream).toBe(true);
    expect(sent.body.stream_options).toEqual({ include_usage: true });
    expect(sent.tools.map((t) => t.function.name)).toEqual(["write_file"]);
    expect(sent.model).toBe("mock-model");
    expect(sent.headers.authorization).toBe("Bearer not-needed");
    expect(sent.body).not.toHaveProperty("temperature");
  });

  it("puts streamed arguments that are not JSON in invalid_tool_calls and keeps the valid ones", async () => {
    mock = await startMockOpenAI([
      {
        toolCalls: [
          { name: "write_file", args: '{"path": oops}', id: "bad" },
          { name: "write_file", args: { path: "b.txt", content: "b" }, id: "good" },
        ],
      },
      { toolCalls: [{ name: "write_file", args: '{"path": oops}', id: "only_bad" }] },
    ]);
    const mixed = (await streamAll(mock)).full;
    expect(mixed.tool_calls?.map((t) => t.id)).toEqual(["good"]);
    expect(mixed.invalid_tool_calls).toEqual([{ name: "write_file", args: '{"path": oops}', id: "bad", error: "Malformed args.", type: "invalid_tool_call" }]);
    // The raw calls, both of them, stay in additional_kwargs.
    expect((mixed.additional_kwargs.tool_calls ?? []).map((t) => t.id)).toEqual(["bad", "good"]);

    const onlyBad = (await streamAll(mock)).full;
    expect(onlyBad.tool_calls).toEqual([]);
    expect(onlyBad.invalid_tool_calls?.map((t) => t.id)).toEqual(["only_bad"]);
  });

  it("parses truncated streamed arguments as a partial object (fields missing), not as invalid", async () => {
    mock = await startMockOpenAI([{ toolCalls: [{ name: "write_file", args: '{"path": "a.txt", "content": ', id: "cut" }] }]);
    const { full } = await streamAll(mock);
    expect(full.tool_calls).toEqual([{ name: "write_file", args: { path: "a.txt" }, id: "cut", type: "tool_call" }]);
    expect(full.invalid_tool_calls).toEqual([]);
  });

  it("answers invoke() with a non-streaming completion, usage and invalid calls included", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    mock = await startMockOpenAI([
      { content: "done", usage: { prompt_tokens: 7, completion_tokens: 3 } },
      { content: "", toolCalls: [{ name: "write_file", args: "{not json", id: "x1" }] },
    ]);
    const model = modelFor(mock).bindTools([writeFile]);
    const first = await model.invoke("hi");
    expect(first.content).toBe("done");
    expect(first.usage_metadata).toMatchObject({ input_tokens: 7, output_tokens: 3, total_tokens: 10 });
    expect(mock.requests[0].body.stream).toBe(false);

    const second = await model.invoke("again");
    expect(second.tool_calls).toEqual([]);
    expect(second.invalid_tool_calls).toMatchObject([{ id: "x1", name: "write_file", args: "{not json" }]);
    expect(second.invalid_tool_calls?.[0]?.error).toContain("are not valid JSON");
    // @langchain/core warns on the console when a message has raw tool calls but no parsed ones.
    expect(warn.mock.calls.flat().join(" ")).toContain("New LangChain packages are available");
  });

  it("sends SSE chunks in OpenAI's order: role, content, tool-call pieces, finish, usage, [DONE]", async () => {
    mock = await startMockOpenAI([{ content: "hello world", toolCalls: [{ name: "f", args: { a: 1, b: "two" }, id: "c9" }] }]);
    const res = await fetch(`${mock.url}/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: "m", messages: [], stream: true, stream_options: { include_usage: true } }),
    });
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    const events = (await res.text())
      .split("\n\n")
      .filter(Boolean)
      .map((e) => e.replace(/^data: /, ""));
    expect(events.at(-1)).toBe("[DONE]");
    const chunks = events.slice(0, -1).map((e) => JSON.parse(e));
    expect(chunks[0].choices[0].delta.role).toBe("assistant");
    const usageChunk = chunks.at(-1);
    expect(usageChunk.choices).toEqual([]);
    expect(usageChunk.usage.total_tokens).toBe(usageChunk.usage.prompt_tokens + usageChunk.usage.completion_tokens);
    expect(chunks.at(-2).choices[0].finish_reason).toBe("tool_calls");
    const calls = chunks.flatMap((c) => c.choices[0]?.delta.tool_calls ?? []);
    expect(calls[0]).toMatchObject({ index: 0, id: "c9", type: "function", function: { name: "f" } });
    expect(calls.slice(1).every((c: any) => c.id === undefined && c.index === 0)).toBe(true);
    expect(calls.map((c: any) => c.function.arguments).join("")).toBe('{"a":1,"b":"two"}');
  });

  it("fails loudly once the script is exhausted, and serves GET /v1/models", async () => {
    mock = await startMockOpenAI([{ content: "only one" }]);
    const model = modelFor(mock);
    await model.invoke("one");
    await expect(model.invoke("two")).rejects.toThrow(/mock script exhausted at request 2/);
    expect(mock.requests).toHaveLength(2);
    const models = (await (await fetch(`${mock.url}/models`)).json()) as { data: { id: string }[] };
    expect(models.data[0].id).toBe("mock-model");
  });

  it("lets close() end a held request so nothing hangs", async () => {
    mock = await startMockOpenAI([{ content: "never", hold: new Promise<void>(() => {}) }]);
    const pending = modelFor(mock).invoke("wait");
    await vi.waitFor(() => expect(mock?.requests).toHaveLength(1));
    await mock.close();
    await expect(pending).rejects.toThrow();
  });

  it("finds the calling agent's role and the latest tool results", async () => {
    mock = await startMockOpenAI(() => ({ content: "ok" }));
    await modelFor(mock).invoke([
      new SystemMessage("You are the dev agent of yolo.\nWrite code."),
      new HumanMessage("go"),
      new AIMessage({ content: "", tool_calls: [{ name: "write_file", args: { path: "a", content: "b" }, id: "t1" }] }),
      new ToolMessage({ content: "wrote a", tool_call_id: "t1" }),
    ]);
    const req = mock.requests[0];
    expect(roleOf(req)).toBe("dev");
    expect(lastToolResults(req)).toEqual([{ role: "tool", content: "wrote a", tool_call_id: "t1" }]);
    expect(roleOf({ ...req, messages: [{ role: "user", content: "x" }] })).toBeNull();
  });
});
