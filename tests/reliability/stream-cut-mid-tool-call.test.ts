import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { HumanMessage, SystemMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { runAgentLoop, STREAM_CUT_RETRIES } from "../../src/agents/runner.js";
import { LimitError, ProviderError } from "../../src/errors.js";
import { toProviderError } from "../../src/llm/errors.js";
import { createChatModel } from "../../src/llm/model.js";
import { TOOLS } from "../../src/tools/registry.js";
import { startMockOpenAI, type ScriptedReply } from "../helpers/mock-openai.js";
import { cleanupsAfterEach } from "../helpers/cleanups.js";

const cleanups = cleanupsAfterEach();

async function agentAgainst(replies: ScriptedReply[], maxRetries = 0) {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "yolo-cut-")));
  const mock = await startMockOpenAI(replies);
  cleanups.push(
    () => mock.close(),
    () => fs.rmSync(root, { recursive: true, force: true }),
  );
  const baseURL = mock.url;
  const model = createChatModel({ name: "mock-model", baseURL, apiKey: "k", temperature: null, maxRetries, timeoutS: 5 });
  const schema = z.object({ summary: z.string() });
  const records: Record<string, unknown>[] = [];
  try {
    const result = await runAgentLoop({
      node: "dev",
      model,
      messages: [new SystemMessage("You are the dev agent."), new HumanMessage("go")],
      tools: Object.values(TOOLS),
      handoff: { schema, jsonSchema: z.toJSONSchema(schema) as Record<string, unknown> },
      toolContext: { root, commandTimeoutS: 5, outputCapBytes: 4096, readCapBytes: 4096, env: {}, secretEnvNames: [] },
      maxTurns: 5,
      maxReminders: 2,
      emit: () => {},
      record: (e) => records.push(e),
      classifyError: (error) => toProviderError(error, { apiKeyEnv: "K", baseURL, model: "mock-model" }),
    });
    return { root, mock, result, error: null, records };
  } catch (error) {
    return { root, mock, result: null, error, records };
  }
}

const write = { name: "write_file", args: { path: "src/add.js", content: "export function add(a, b) {\n  return a + b;\n}\n" } };
const done: ScriptedReply = { toolCalls: [{ name: "handoff", args: { summary: "done" } }] };

// Either way nothing of the cut call runs: a closed connection drops the reply and asks again (then fails as a
// typed provider error, exit 5), and a response that just ends leaves arguments that are not JSON, a tool error.
describe("a model stream cut in the middle of a tool call's arguments", () => {
  it("connection closed: the partial reply is dropped and the call made again; the retried answer is used", async () => {
    const r = await agentAgainst([{ toolCalls: [write], cut: { at: 30, how: "reset" } }, { toolCalls: [write] }, done]);
    expect(r.error).toBeNull();
    expect(r.result?.filesChanged).toEqual(["src/add.js"]);
    expect(fs.readFileSync(path.join(r.root, "src/add.js"), "utf8")).toBe(write.args.content);
    expect(r.mock.requests).toHaveLength(3);
    // The retried request is the same as the cut one: the partial reply never entered the transcript.
    expect(r.mock.requests[1].messages).toEqual(r.mock.requests[0].messages);
    expect(r.records.filter((e) => e.role === "retry")).toHaveLength(1);
    expect(r.records.filter((e) => e.role === "tool" && e.ok === true)).toHaveLength(2);
  });

  it("connection closed on every try: a typed ProviderError after the retries, and nothing written", async () => {
    const cut: ScriptedReply = { toolCalls: [write], cut: { at: 30, how: "reset" } };
    const r = await agentAgainst([cut, cut, cut, done]);
    expect(r.error).toBeInstanceOf(ProviderError);
    expect((r.error as Error).message).toMatch(/closed the connection in the middle of its answer \(UND_ERR_SOCKET\), even after retries/);
    expect(r.mock.requests).toHaveLength(1 + STREAM_CUT_RETRIES);
    expect(fs.existsSync(path.join(r.root, "src"))).toBe(false);
  });

  it.each([5, 30, write.args.content.length + 20])("response ended after %d characters of arguments: a tool error, never a partial write", async (at) => {
    const r = await agentAgainst([{ toolCalls: [write], cut: { at, how: "end" } }, done]);
    expect(r.error).toBeNull();
    expect(r.result?.filesChanged).toEqual([]);
    expect(fs.existsSync(path.join(r.root, "src"))).toBe(false);
    const [result] = r.records.filter((e) => e.role === "tool");
    expect(result).toMatchObject({ ok: false });
    expect(String(result.content)).toContain("not valid JSON");
  });

  it("200 cuts at every point of the arguments, both ways: zero crashes, zero partial writes", async () => {
    const outcomes = { retried: 0, toolErrors: 0, typed: 0, crashes: [] as string[] };
    for (let i = 0; i < 200; i++) {
      const how = i % 2 ? "end" : "reset";
      const at = Math.floor((i / 200) * JSON.stringify(write.args).length);
      const r = await agentAgainst([{ toolCalls: [write], cut: { at, how } }, done]);
      if (r.error instanceof ProviderError || r.error instanceof LimitError) outcomes.typed++;
      else if (r.error) outcomes.crashes.push(String((r.error as Error).stack ?? r.error));
      outcomes.retried += r.records.filter((e) => e.role === "retry").length;
      outcomes.toolErrors += r.records.filter((e) => e.role === "tool" && e.ok === false).length;
      expect(fs.existsSync(path.join(r.root, "src")), `cut ${how} at ${at}`).toBe(false);
      await cleanups.run();
    }
    expect(outcomes.crashes).toEqual([]);
    expect(outcomes.retried).toBe(100);
    expect(outcomes.toolErrors).toBe(100);
    console.log(
      `stream-cut-mid-tool-call: 200 cuts, ${outcomes.retried} retried, ${outcomes.toolErrors} tool errors, ${outcomes.typed} typed failures, 0 crashes, 0 partial writes`,
    );
  }, 120_000);
});
