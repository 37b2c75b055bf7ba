import { describe, expect, it } from "vitest";
import type { ResolvedConfig } from "../../../src/config/schema.js";
import { checkModelEndpoint } from "../../../src/llm/endpoint-probe.js";
import { ProviderError } from "../../../src/errors.js";
import { startMockOpenAI } from "../../helpers/mock-openai.js";

// The start-up probe against the scripted OpenAI-compatible server: GET /models decides, no chat request is made.
async function probe(name: string, models: string[] | null): Promise<{ error: unknown; chats: number }> {
  const mock = await startMockOpenAI([], { models });
  try {
    const model = { name, baseURL: mock.url, apiKey: null, apiKeyEnv: "OPENAI_API_KEY" } as unknown as ResolvedConfig["model"];
    const error = await checkModelEndpoint(model).then(
      () => null,
      (e: unknown) => e,
    );
    return { error, chats: mock.requests.length };
  } finally {
    await mock.close();
  }
}

describe("the start-up endpoint probe and the configured model", () => {
  it("refuses a model the server's non-empty list does not name, with the model and a few listed ones", async () => {
    const listed = ["llama3:latest", "qwen2.5-coder:7b", "phi3", "mistral", "gemma2", "codellama", "deepseek-r1"];
    const { error, chats } = await probe("gpt-4o", listed);
    expect(error).toBeInstanceOf(ProviderError);
    const message = (error as Error).message;
    expect(message).toContain('Model "gpt-4o" was not found at');
    expect(message).toContain('GET /models lists 7 models, not "gpt-4o": llama3:latest, qwen2.5-coder:7b, phi3, mistral, gemma2, …');
    expect(message).toContain("Check the model name");
    expect((error as ProviderError).status).toBe(404);
    expect(chats).toBe(0);
  });

  it("passes a listed model, a tagless name the list shows as :latest, an empty list and a server without /models", async () => {
    expect((await probe("mock-model", ["other", "mock-model"])).error).toBeNull();
    expect((await probe("llama3", ["llama3:latest"])).error).toBeNull();
    expect((await probe("anything", [])).error).toBeNull();
    expect((await probe("anything", null)).error).toBeNull();
  });

  it("does not take a listed model with another tag, or a prefix, for the configured one", async () => {
    expect((await probe("llama3", ["llama3:8b"])).error).toBeInstanceOf(ProviderError);
    expect((await probe("mock", ["mock-model"])).error).toBeInstanceOf(ProviderError);
  });
});
