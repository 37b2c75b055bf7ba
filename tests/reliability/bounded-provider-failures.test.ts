import { afterEach, describe, expect, it } from "vitest";
import { ProviderError } from "../../src/errors.js";
import { toProviderError } from "../../src/llm/errors.js";
import { createChatModel } from "../../src/llm/model.js";
import type { RetryCount } from "../../src/llm/retry-policy.js";
import { startMockOpenAI, type MockOpenAI, type ScriptedReply } from "../helpers/mock-openai.js";
import { closedPort } from "../helpers/closed-port.js";
import { runEngine } from "../helpers/engine.js";
import { makeProject } from "../helpers/project.js";

// How a provider that fails fails: bounded in attempts (and so in time), worded for what happened, through the real client.

const mocks: MockOpenAI[] = [];
afterEach(async () => {
  for (const m of mocks.splice(0)) await m.close();
});

async function mock(replies: ScriptedReply[]): Promise<MockOpenAI> {
  const m = await startMockOpenAI(replies);
  mocks.push(m);
  return m;
}

type Outcome = { text?: string; error?: unknown; retries: { reason: string; count: RetryCount }[] };

type CallOptions = { maxRetries?: number; timeoutS?: number; callDeadlineS?: number; maxReplyBytes?: number };

async function call(baseURL: string, how: "stream" | "invoke", opts: CallOptions = {}): Promise<Outcome> {
  const retries: Outcome["retries"] = [];
  const model = createChatModel({
    name: "m",
    baseURL,
    apiKey: "k",
    temperature: null,
    maxRetries: opts.maxRetries ?? 4,
    timeoutS: opts.timeoutS ?? 5,
    ...(opts.callDeadlineS ? { callDeadlineS: opts.callDeadlineS } : {}),
    ...(opts.maxReplyBytes ? { maxReplyBytes: opts.maxReplyBytes } : {}),
    onRetry: (reason, count) => retries.push({ reason, count }),
  });
  try {
    if (how === "invoke") return { text: String((await model.invoke("hi")).content), retries };
    let text = "";
    for await (const chunk of await model.stream("hi")) text += String(chunk.content);
    return { text, retries };
  } catch (raw) {
    return { error: toProviderError(raw, { apiKeyEnv: "K", baseURL, model: "m" }) ?? raw, retries };
  }
}

// A port on 127.0.0.1 that nothing listens on.

describe("bounded provider failures", { timeout: 180_000 }, () => {
  it("a server that accepts the request and never answers: one retry, not maxRetries, then 'did not answer in time'", async () => {
    const never = new Promise<void>(() => {});
    const m = await mock([{ hold: never }, { hold: never }, { hold: never }, { hold: never }, { hold: never }]);
    const r = await call(m.url, "stream", { maxRetries: 4, timeoutS: 1 });
    expect(r.error).toBeInstanceOf(ProviderError);
    expect((r.error as Error).message).toMatch(/did not answer in time/);
    expect(m.requests).toHaveLength(2);
    expect(r.retries.map((x) => x.count)).toEqual([{ retry: 1, of: 1 }]);
  });

  it("an unreachable endpoint: two quick retries counted down honestly, then 'could not connect'", async () => {
    const url = `http://127.0.0.1:${await closedPort()}/v1`;
    const r = await call(url, "stream", { maxRetries: 4 });
    expect(r.error).toBeInstanceOf(ProviderError);
    expect((r.error as Error).message).toMatch(/^Could not connect to the model provider at .* \(ECONNREFUSED\)/);
    expect(r.retries.map((x) => `${x.reason}: retry ${x.count.retry} of ${x.count.of}`)).toEqual(["ECONNREFUSED: retry 1 of 2", "ECONNREFUSED: retry 2 of 2"]);
  });

  it("maxRetries below the cap is honoured: one retry, 'retry 1 of 1'", async () => {
    const url = `http://127.0.0.1:${await closedPort()}/v1`;
    const r = await call(url, "invoke", { maxRetries: 1 });
    expect(r.retries.map((x) => x.count)).toEqual([{ retry: 1, of: 1 }]);
  });

  it("a port fetch refuses ('bad port') is not retried and is worded as local configuration, naming the port", async () => {
    const r = await call("http://127.0.0.1:6000/v1", "stream", { maxRetries: 4 });
    expect(r.retries).toEqual([]);
    expect(r.error).toBeInstanceOf(ProviderError);
    expect((r.error as Error).message).toMatch(/uses port 6000, which Node's HTTP client refuses/);
    expect((r.error as Error).message).toMatch(/local configuration problem, not the server's/);
  });

  it("a stream that goes silent after it started says the stream was cut mid-answer, not 'could not connect'", async () => {
    const m = await mock([{ content: "Let me look", stall: true }]);
    const r = await call(m.url, "stream", { maxRetries: 2, timeoutS: 1 });
    expect(r.error).toBeInstanceOf(ProviderError);
    expect((r.error as Error).message).toMatch(/the stream was cut mid-answer/);
    expect((r.error as Error).message).not.toMatch(/could not connect/i);
  });

  it("a 503 still gets the configured retries, counted 1 of 2, 2 of 2", async () => {
    const m = await mock([
      { status: 503, headers: { "retry-after": "0" } },
      { status: 503, headers: { "retry-after": "0" } },
      { status: 503, headers: { "retry-after": "0" } },
    ]);
    const r = await call(m.url, "stream", { maxRetries: 2 });
    expect(r.error).toBeInstanceOf(ProviderError);
    expect(m.requests).toHaveLength(3);
    expect(r.retries.map((x) => x.count)).toEqual([
      { retry: 1, of: 2 },
      { retry: 2, of: 2 },
    ]);
  });

  it.each([
    ["an HTML page (a proxy's login)", { body: "<html><body>Please sign in</body></html>", contentType: "text/html" }],
    ["JSON that is not a completion", { body: '{"status":"ok"}', contentType: "application/json" }],
    ["half a JSON document", { body: '{"id":"x","choices":[{"mess', contentType: "application/json" }],
  ])("a non-streamed request answered with %s is a provider error, sent once", async (_label, raw) => {
    const m = await mock([{ raw }, { content: "never" }]);
    const r = await call(m.url, "invoke", { maxRetries: 3 });
    expect(r.error).toBeInstanceOf(ProviderError);
    expect((r.error as Error).message).toMatch(
      /did not answer like an OpenAI-compatible API: the server answered HTTP 200 with a body that is not a model reply/,
    );
    expect(m.requests).toHaveLength(1);
  });

  it("a streamed request answered with an HTML page is a provider error too", async () => {
    const m = await mock([{ raw: { body: "<html>login</html>" } }]);
    const r = await call(m.url, "stream", { maxRetries: 3 });
    expect(r.error).toBeInstanceOf(ProviderError);
    expect((r.error as Error).message).toMatch(/text\/html.*login/);
  });

  it("a stream that trickles 10 bytes every 2 s (never idle long enough for timeoutS) ends at model.callDeadlineS, not never", async () => {
    const m = await mock([{ drip: { chunk: ": trickle\n", everyMs: 2000 } }, { content: "never" }]);
    const r = await call(m.url, "stream", { maxRetries: 0, timeoutS: 5, callDeadlineS: 3 });
    expect(r.error).toBeInstanceOf(ProviderError);
    expect((r.error as Error).message).toMatch(/took longer than 3s \(model\.callDeadlineS\)/);
    expect((r.error as Error).message).toMatch(/raise model\.callDeadlineS/);
    expect(m.requests).toHaveLength(1);
  });

  it("the deadline is not retried even with retries left: the same server would trickle again", async () => {
    const m = await mock([{ drip: { chunk: ": trickle\n", everyMs: 200 } }, { content: "never" }]);
    const r = await call(m.url, "stream", { maxRetries: 3, timeoutS: 5, callDeadlineS: 1 });
    expect((r.error as Error).message).toMatch(/model\.callDeadlineS/);
    expect(m.requests).toHaveLength(1);
    expect(r.retries).toEqual([]);
  });

  it("a flood of 64 KB every 5 ms ends at model.maxReplyBytes, not 'Invalid string length'", async () => {
    const delta = (text: string) =>
      `data: ${JSON.stringify({ id: "x", object: "chat.completion.chunk", created: 0, model: "m", choices: [{ index: 0, delta: { content: text }, finish_reason: null }] })}\n\n`;
    const chunk = delta("a".repeat(64 * 1024 - delta("").length));
    expect(chunk.length).toBe(64 * 1024);
    const m = await mock([{ drip: { chunk, everyMs: 5 } }, { content: "never" }]);
    const r = await call(m.url, "stream", { maxRetries: 2, timeoutS: 5, maxReplyBytes: 2 * 1024 * 1024 });
    expect(r.error).toBeInstanceOf(ProviderError);
    expect((r.error as Error).message).toMatch(/was larger than 2097152 bytes \(model\.maxReplyBytes\)/);
    expect(m.requests).toHaveLength(1);
  });

  it("a non-streamed answer past the size cap is the same provider error, sent once", async () => {
    const m = await mock([{ raw: { body: `{"choices":[],"pad":"${"x".repeat(300_000)}"}`, contentType: "application/json" } }, { content: "never" }]);
    const r = await call(m.url, "invoke", { maxRetries: 3, maxReplyBytes: 100_000 });
    expect(r.error).toBeInstanceOf(ProviderError);
    expect((r.error as Error).message).toMatch(/model\.maxReplyBytes/);
    expect(m.requests).toHaveLength(1);
  });

  it.each([
    ["a trickle", { drip: { chunk: ": trickle\n", everyMs: 200 } }, { callDeadlineS: 1 }, /took longer than 1s \(model\.callDeadlineS\)/],
    [
      "a flood",
      { drip: { chunk: `data: {"x":"${"a".repeat(64 * 1024)}"}\n\n`, everyMs: 5 } },
      { maxReplyBytes: 1024 * 1024 },
      /larger than 1048576 bytes \(model\.maxReplyBytes\)/,
    ],
  ] as const)("%s through a whole run ends it as a provider error (exit 5) naming the config key", async (_label, reply, model, words) => {
    const project = makeProject();
    const m = await mock([reply]);
    try {
      const { result } = await runEngine({ root: project.root, baseURL: m.url, threadId: "t-bound", requirement: "Add add()", config: { model } });
      expect(result).toMatchObject({ status: "provider_error", exitCode: 5 });
      expect(result.reason).toMatch(words);
    } finally {
      project.cleanup();
    }
  });
});
