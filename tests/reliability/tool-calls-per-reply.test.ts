import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { HumanMessage, SystemMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { runAgentLoop } from "../../src/agents/runner.js";
import { toProviderError } from "../../src/llm/errors.js";
import { createChatModel } from "../../src/llm/model.js";
import { TOOLS } from "../../src/tools/registry.js";
import { startMockOpenAI } from "../helpers/mock-openai.js";
import { cleanupsAfterEach } from "../helpers/cleanups.js";

const cleanups = cleanupsAfterEach();

// One model reply with 400 run_command calls used to run all 400. A reply's calls past the bound are
// answered with an error and not run; the calls within it run as always.
describe("tool calls per model reply", () => {
  it("a reply of 400 run_command calls runs the first 8 and refuses the other 392 without running them", async () => {
    const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "yolo-percall-")));
    const calls = Array.from({ length: 400 }, (_, i) => ({ name: "run_command", args: { command: `echo ${i} >> ran.txt` } }));
    const mock = await startMockOpenAI([{ toolCalls: calls }, { toolCalls: [{ name: "handoff", args: { summary: "done" } }] }]);
    cleanups.push(
      () => mock.close(),
      () => fs.rmSync(root, { recursive: true, force: true }),
    );
    const schema = z.object({ summary: z.string() });
    const records: Record<string, unknown>[] = [];
    const model = createChatModel({ name: "mock-model", baseURL: mock.url, apiKey: "k", temperature: null, maxRetries: 0, timeoutS: 30 });
    const result = await runAgentLoop({
      node: "dev",
      model,
      messages: [new SystemMessage("You are the dev agent."), new HumanMessage("go")],
      tools: [TOOLS.run_command],
      handoff: { schema, jsonSchema: z.toJSONSchema(schema) as Record<string, unknown> },
      toolContext: { root, commandTimeoutS: 10, outputCapBytes: 4096, readCapBytes: 4096, env: { PATH: process.env.PATH }, secretEnvNames: [] },
      maxTurns: 5,
      maxToolCallsPerTurn: 8,
      maxReminders: 2,
      emit: () => {},
      record: (e) => records.push(e),
      classifyError: (error) => toProviderError(error, { apiKeyEnv: "K", baseURL: mock.url, model: "mock-model" }),
    });
    expect(result.handoff).toEqual({ summary: "done" });
    expect(fs.readFileSync(path.join(root, "ran.txt"), "utf8").trim().split("\n")).toEqual(["0", "1", "2", "3", "4", "5", "6", "7"]);
    const answers = records.filter((e) => e.role === "tool");
    // The 400 calls of the first reply, and the handoff of the second.
    expect(answers).toHaveLength(401);
    const refused = answers.filter((e) => String(e.content).startsWith("Not run: one reply may make at most 8 tool calls and this one made 400"));
    expect(refused).toHaveLength(392);
    // Every call was answered in the next request: the provider sees a well-formed transcript.
    expect(mock.requests[1].messages.filter((m: { role: string }) => m.role === "tool")).toHaveLength(400);
  });
});
