import { describe, expect, it } from "vitest";
import type { ResolvedConfig } from "../../../src/config/schema.js";
import { checkModelEndpoint } from "../../../src/llm/endpoint-probe.js";
import { ProviderError } from "../../../src/errors.js";
import { type ScriptedReply, startMockOpenAI } from "../../helpers/mock-openai.js";

// The start-up probe against the scripted OpenAI-compatible server: GET /models is advice; a model it does not list is
// asked for once, and only a 404 or "model not found" there refuses it.
async function probe(name: string, models: string[] | null, replies: ScriptedReply[] = []): Promise<{ error: unknown; warning: string | null; chats: number }> {
  const mock = await startMockOpenAI(replies, { models });
  try {
    const model = { name, baseURL: mock.url, apiKey: null, apiKeyEnv: "OPENAI_API_KEY" } as unknown as ResolvedConfig["model"];
    const outcome = await checkModelEndpoint(model).then(
      (warning) => ({ error: null, warning }),
      (e: unknown) => ({ error: e, warning: null }),
    );
    return { ...outcome, chats: mock.requests.length };
  } finally {
    await mock.close();
  }
}

describe("the start-up endpoint probe and the configured model", () => {
  it("refuses a model the list does not name only when a request naming it answers 404, naming a few listed ones", async () => {
    const listed = ["llama3:latest", "qwen2.5-coder:7b", "phi3", "mistral", "gemma2", "codellama", "deepseek-r1"];
    const { error, chats } = await probe("gpt-4o", listed, [{ status: 404, content: "The model `gpt-4o` does not exist" }]);
    expect(error).toBeInstanceOf(ProviderError);
    const message = (error as Error).message;
    expect(message).toContain("gpt-4o");
    expect(message).toContain("llama3:latest, qwen2.5-coder:7b, phi3, mistral, gemma2, …");
    expect(chats).toBe(1);
  });

  it("a model the list does not name but the server answers (a deployment, a wildcard route, an alias) runs, with a warning", async () => {
    const { error, warning, chats } = await probe("my-deployment", ["gpt-4o"], [{ content: "ok" }]);
    expect(error).toBeNull();
    expect(warning).toContain('"my-deployment" was answered, so the run goes on');
    expect(chats).toBe(1);
  });

  it("passes a listed model, a tagless name the list shows as :latest, an empty list and a server without /models", async () => {
    expect((await probe("mock-model", ["other", "mock-model"])).error).toBeNull();
    expect((await probe("llama3", ["llama3:latest"])).error).toBeNull();
    expect((await probe("anything", [])).error).toBeNull();
    expect((await probe("anything", null)).error).toBeNull();
  });

  it("does not take a listed model with another tag, or a prefix, for the configured one: it is asked for", async () => {
    expect((await probe("llama3", ["llama3:8b"], [{ status: 404, content: "model not found" }])).error).toBeInstanceOf(ProviderError);
    expect((await probe("mock", ["mock-model"], [{ status: 404, content: "model not found" }])).error).toBeInstanceOf(ProviderError);
  });
});
