import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { HumanMessage, SystemMessage } from "@langchain/core/messages";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { runAgentLoop } from "../../src/agents/runner.js";
import type { EventBody } from "../../src/events/schema.js";
import { toProviderError } from "../../src/llm/errors.js";
import { createChatModel } from "../../src/llm/model.js";
import { createRecorder, type FetchLike } from "../../src/llm/recording.js";
import { createReplayer, loadSession } from "../../src/llm/recording-replay.js";
import { TOOLS } from "../../src/tools/registry.js";
import { startMockOpenAI, type ScriptedReply } from "../helpers/mock-openai.js";

// `model.api: "responses"`: @langchain/openai's own Responses API support, against the documented SSE event stream.

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

const ADD = "export function add(a, b) {\n  return a + b;\n}\n";
const SCRIPT: ScriptedReply[] = [
  {
    content: "Writing the module.",
    toolCalls: [{ name: "write_file", args: { path: "src/add.js", content: ADD } }],
    usage: { prompt_tokens: 120, completion_tokens: 40 },
    wire: { reasoningTokens: 12 },
  },
  { toolCalls: [{ name: "handoff", args: { summary: "added add()" } }], usage: { prompt_tokens: 200, completion_tokens: 10 } },
];

function tempRoot(): string {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "yolo-responses-")));
  cleanups.push(() => fs.rmSync(root, { recursive: true, force: true }));
  return root;
}

async function loop(baseURL: string, root: string, fetch?: FetchLike) {
  const model = createChatModel({ name: "gpt-5-codex-mini", baseURL, apiKey: "k", temperature: null, maxRetries: 0, timeoutS: 5, api: "responses", fetch });
  const schema = z.object({ summary: z.string() });
  const events: EventBody[] = [];
  const result = await runAgentLoop({
    node: "dev",
    model,
    messages: [new SystemMessage("You are the dev agent."), new HumanMessage("Add add(a, b) to src/add.js")],
    tools: Object.values(TOOLS),
    handoff: { schema, jsonSchema: z.toJSONSchema(schema) as Record<string, unknown> },
    toolContext: { root, commandTimeoutS: 5, outputCapBytes: 4096, readCapBytes: 4096, env: {}, secretEnvNames: [] },
    maxTurns: 5,
    maxReminders: 2,
    emit: (e) => events.push(e),
    record: () => {},
    classifyError: (error) => toProviderError(error, { apiKeyEnv: "K", baseURL, model: "gpt-5-codex-mini" }),
  });
  return { result, events };
}

describe('the OpenAI Responses API (model.api: "responses")', () => {
  it("streams text and function calls, runs them, feeds results back as function_call_output, counts usage", async () => {
    const mock = await startMockOpenAI(SCRIPT);
    cleanups.push(() => mock.close());
    const root = tempRoot();
    const { result, events } = await loop(mock.url, root);
    expect(result.handoff).toEqual({ summary: "added add()" });
    expect(fs.readFileSync(path.join(root, "src/add.js"), "utf8")).toBe(ADD);
    // Sent to /v1/responses (the mock records `input` there), not chat completions.
    expect(mock.requests[0].body).toHaveProperty("input");
    expect(mock.requests[0].body).not.toHaveProperty("messages");
    expect(mock.requests[0].body.stream).toBe(true);
    const output = mock.requests[1].body.input.find((i: { type?: string }) => i.type === "function_call_output");
    expect(output.call_id).toBe(mock.requests[1].body.input.find((i: { type?: string }) => i.type === "function_call").call_id);
    expect(
      events
        .filter((e) => e.type === "token")
        .map((e) => (e as { text: string }).text)
        .join(""),
    ).toBe("Writing the module.");
    const usage = events.filter((e) => e.type === "usage").map((e) => (e as { usage: unknown }).usage);
    expect(usage).toEqual([
      { promptTokens: 120, completionTokens: 40, totalTokens: 160, calls: 1, cachedTokens: 0, reasoningTokens: 12 },
      { promptTokens: 200, completionTokens: 10, totalTokens: 210, calls: 1, cachedTokens: 0 },
    ]);
  });

  it("a session recorded against /v1/responses replays offline to the same result", async () => {
    const mock = await startMockOpenAI(SCRIPT);
    cleanups.push(() => mock.close());
    const dir = tempRoot();
    const file = path.join(dir, "session.jsonl");
    const recordedIn = tempRoot();
    const recorder = createRecorder({ file, append: false, context: { root: recordedIn, threadId: "t1" } });
    const recorded = await loop(mock.url, recordedIn, recorder.fetch);
    await recorder.flush();
    const lines = fs.readFileSync(file, "utf8").trim().split("\n");
    expect(lines).toHaveLength(2);
    expect(JSON.parse(lines[0]).agent).toBe("dev");

    const replayedIn = tempRoot();
    const replayer = createReplayer({ exchanges: loadSession(file), context: { root: replayedIn, threadId: "t1" }, file });
    const replayed = await loop("http://127.0.0.1:9/v1", replayedIn, replayer.fetch);
    expect(replayer.served()).toBe(2);
    expect(replayed.result.handoff).toEqual(recorded.result.handoff);
    expect(fs.readFileSync(path.join(replayedIn, "src/add.js"), "utf8")).toBe(ADD);
  });
});
