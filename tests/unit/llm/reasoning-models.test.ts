import { HumanMessage, SystemMessage } from "@langchain/core/messages";
import { afterEach, describe, expect, it } from "vitest";
import { createChatModel } from "../../../src/llm/model.js";
import { isReasoningModel } from "../../../src/llm/reasoning.js";
import { startMockOpenAI, type MockOpenAI } from "../../helpers/mock-openai.js";

const mocks: MockOpenAI[] = [];
afterEach(async () => {
  for (const m of mocks.splice(0)) await m.close();
});

// The request body the server receives for a model, through the real client.
async function bodyFor(name: string, opts: { temperature?: number | null; reasoningEffort?: string | null } = {}) {
  const mock = await startMockOpenAI([{ content: "ok", wire: { reasoningTokens: 7 }, usage: { prompt_tokens: 10, completion_tokens: 20 } }]);
  mocks.push(mock);
  const model = createChatModel({
    name,
    baseURL: mock.url,
    apiKey: "k",
    temperature: opts.temperature ?? 0.2,
    maxRetries: 0,
    timeoutS: 5,
    reasoningEffort: opts.reasoningEffort ?? null,
  });
  let usage: unknown;
  for await (const chunk of await model.stream([new SystemMessage("You are the dev agent."), new HumanMessage("hi")])) usage = chunk.usage_metadata ?? usage;
  return { body: mock.requests[0].body, usage };
}

describe("reasoning models (o-series, gpt-5 family)", () => {
  it("matches @langchain/openai's rule for which names are reasoning models", () => {
    expect(["o1", "o3-mini", "o4-mini", "gpt-5", "gpt-5-mini", "gpt-5.1-codex"].every(isReasoningModel)).toBe(true);
    expect(["gpt-4o-mini", "gpt-5-chat-latest", "qwen2.5-coder", "llama3.1"].some(isReasoningModel)).toBe(false);
  });

  it.each(["o3-mini", "gpt-5-mini"])("%s: no temperature, no max_tokens, the configured reasoning_effort; reasoning tokens reported", async (name) => {
    const { body, usage } = await bodyFor(name, { temperature: 0.2, reasoningEffort: "low" });
    expect(body).not.toHaveProperty("temperature");
    expect(body).not.toHaveProperty("max_tokens");
    expect(body.reasoning_effort).toBe("low");
    // LangChain already sends the system prompt as `developer` to these models.
    expect(body.messages[0].role).toBe("developer");
    expect(usage).toMatchObject({ output_token_details: { reasoning: 7 } });
  });

  it("no reasoning_effort configured: none is sent (the server's default)", async () => {
    const { body } = await bodyFor("o3-mini");
    expect(body).not.toHaveProperty("reasoning_effort");
  });

  it("other models keep their temperature, and a configured reasoning_effort is sent to them too (gpt-oss on vLLM), never dropped", async () => {
    const { body } = await bodyFor("gpt-oss-20b", { temperature: 0.2, reasoningEffort: "high" });
    expect(body.temperature).toBe(0.2);
    expect(body.reasoning_effort).toBe("high");
    expect(body.messages[0].role).toBe("system");
  });
});
