import { afterEach, describe, expect, it } from "vitest";
import { ProviderError } from "../../../src/errors.js";
import { toProviderError } from "../../../src/llm/errors.js";
import { createChatModel } from "../../../src/llm/model.js";
import { startMockOpenAI, type MockOpenAI, type ScriptedReply } from "../../helpers/mock-openai.js";
import { closedPort } from "../../helpers/closed-port.js";

// What the real ChatOpenAI does with provider failures (its own retries included) and how yolo words them.

const KEY_ENV = "YOLO_TEST_API_KEY";
let mock: MockOpenAI | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

// Calls the model once against `baseURL`, returning the mapped error, the raw one and the elapsed time.
async function failure(baseURL: string, opts: { maxRetries?: number; timeoutS?: number; stream?: boolean } = {}) {
  const model = createChatModel({
    name: "gpt-test",
    baseURL,
    apiKey: "sk-test",
    temperature: 0,
    maxRetries: opts.maxRetries ?? 0,
    timeoutS: opts.timeoutS ?? 5,
  });
  let raw: unknown;
  try {
    if (opts.stream) for await (const _ of await model.stream("hi"));
    else await model.invoke("hi");
  } catch (err) {
    raw = err;
  }
  expect(raw).toBeDefined();
  return { raw, mapped: toProviderError(raw, { apiKeyEnv: KEY_ENV, baseURL, model: "gpt-test" }) };
}

async function scripted(replies: ScriptedReply[]) {
  mock = await startMockOpenAI(replies);
  return mock;
}

describe("provider errors from the real ChatOpenAI", () => {
  it("fails fast on 401 and names the API key variable", async () => {
    const m = await scripted([{ status: 401 }, { content: "unused" }]);
    const { mapped } = await failure(m.url, { maxRetries: 3 });
    expect(m.requests).toHaveLength(1);
    expect(mapped).toBeInstanceOf(ProviderError);
    expect(mapped).toMatchObject({ code: "provider", status: 401 });
    expect(mapped?.message).toContain("rejected the API key (401)");
    expect(mapped?.message).toContain(KEY_ENV);
    expect(mapped?.message).toContain("Incorrect API key provided");
  });

  it("maps a 403 on a streamed call the same way", async () => {
    const m = await scripted([{ status: 403 }]);
    const { mapped } = await failure(m.url, { maxRetries: 3, stream: true });
    expect(m.requests).toHaveLength(1);
    expect(mapped).toMatchObject({ status: 403 });
    expect(mapped?.message).toContain(KEY_ENV);
  });

  it("does not retry a 404 and names the model and base URL", async () => {
    const m = await scripted([{ status: 404 }, { content: "unused" }]);
    const { mapped } = await failure(m.url, { maxRetries: 3 });
    expect(m.requests).toHaveLength(1);
    expect(mapped).toMatchObject({ status: 404 });
    expect(mapped?.message).toContain('Model "gpt-test" was not found');
    expect(mapped?.message).toContain(m.url);
  });

  it("retries a 429 that carries retry-after, then succeeds", async () => {
    const m = await scripted([{ status: 429, headers: { "retry-after": "0" } }, { content: "finally" }]);
    const model = createChatModel({ name: "gpt-test", baseURL: m.url, apiKey: null, temperature: null, maxRetries: 2, timeoutS: 5 });
    const reply = await model.invoke("hi");
    expect(reply.content).toBe("finally");
    expect(m.requests).toHaveLength(2);
  });

  it("retries a 429 without retry-after with backoff (LangChain's default would give up at once)", async () => {
    const m = await scripted([{ status: 429 }, { content: "after backoff" }]);
    const model = createChatModel({ name: "gpt-test", baseURL: m.url, apiKey: null, temperature: null, maxRetries: 2, timeoutS: 5 });
    const reply = await model.invoke("hi");
    expect(reply.content).toBe("after backoff");
    expect(m.requests).toHaveLength(2);
  });

  it("maps a 429 that outlasts the retries to a rate-limit ProviderError", async () => {
    const m = await scripted([{ status: 429 }, { status: 429 }, { content: "unused" }]);
    const { mapped } = await failure(m.url, { maxRetries: 1 });
    expect(m.requests).toHaveLength(2);
    expect(mapped).toMatchObject({ status: 429 });
    expect(mapped?.message).toContain("rate limiting requests (429)");
  });

  it("says when a 429 is a used-up quota", async () => {
    const m = await scripted([{ status: 429, content: "You exceeded your current quota, please check your plan and billing details." }]);
    const { mapped } = await failure(m.url, { maxRetries: 2 });
    expect(m.requests).toHaveLength(1);
    expect(mapped?.message).toContain("quota is used up (429)");
  });

  it("retries 500s until maxRetries is spent, then maps to a ProviderError", async () => {
    const m = await scripted([{ status: 500 }, { status: 502 }, { content: "unused" }]);
    const { mapped } = await failure(m.url, { maxRetries: 1 });
    expect(m.requests).toHaveLength(2);
    expect(mapped).toMatchObject({ code: "provider", status: 502 });
    expect(mapped?.message).toContain("failed with HTTP 502");
    expect(mapped?.message).toContain(m.url);
  });

  it("names the base URL when nothing listens there", async () => {
    const url = `http://127.0.0.1:${await closedPort()}/v1`;
    const { mapped } = await failure(url, { maxRetries: 0 });
    expect(mapped).toBeInstanceOf(ProviderError);
    expect(mapped?.message).toContain(`Could not connect to the model provider at ${url} (ECONNREFUSED)`);
  });

  it("reports a provider that does not answer within the timeout", async () => {
    const m = await scripted([{ content: "late", delayMs: 3000 }]);
    const { raw, mapped } = await failure(m.url, { maxRetries: 0, timeoutS: 0.2 });
    expect(raw).toMatchObject({ name: "TimeoutError" });
    expect(mapped?.message).toContain("did not answer in time");
  });

  it("returns null for aborts and for errors that are not the provider's", async () => {
    const m = await scripted([{ content: "late", delayMs: 3000 }]);
    const model = createChatModel({ name: "gpt-test", baseURL: m.url, apiKey: null, temperature: null, maxRetries: 0, timeoutS: 5 });
    const ctx = { apiKeyEnv: KEY_ENV, baseURL: m.url, model: "gpt-test" };
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const aborted = await model.invoke("hi", { signal: controller.signal }).catch((e: unknown) => e);
    expect(toProviderError(aborted, ctx)).toBeNull();
    expect(toProviderError(new TypeError("x is undefined"), ctx)).toBeNull();
    expect(toProviderError("string", ctx)).toBeNull();
  });

  it("names the default endpoint when no base URL is set", () => {
    const err = Object.assign(new Error("401 bad key"), { status: 401 });
    const mapped = toProviderError(err, { apiKeyEnv: "OPENAI_API_KEY", baseURL: null, model: "gpt-4o" });
    expect(mapped?.message).toContain("Check OPENAI_API_KEY");
    expect(mapped?.message).toContain("https://api.openai.com/v1");
    expect(mapped?.cause).toBe(err);
  });
});

// A port that was free a moment ago and has nothing listening now.
