import { afterEach, describe, expect, it } from "vitest";
import { toProviderError } from "../../../src/llm/errors.js";
import { createChatModel } from "../../../src/llm/model.js";
import { startMockOpenAI, type MockOpenAI, type ScriptedReply } from "../../helpers/mock-openai.js";

// The real ChatOpenAI against the scripted server; waits are recorded instead of slept, so nothing is timed.
let mock: MockOpenAI | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

function model(replies: ScriptedReply[], maxRetries: number) {
  const waits: number[] = [];
  const retries: string[] = [];
  const make = async () => {
    mock = await startMockOpenAI(replies);
    return createChatModel({
      name: "gpt-test",
      baseURL: mock.url,
      apiKey: null,
      temperature: null,
      maxRetries,
      timeoutS: 5,
      onRetry: (reason, count) => retries.push(`${reason} ${count.retry}/${count.of}`),
      sleep: async (ms) => void waits.push(ms),
    });
  };
  return { make, waits, retries };
}

describe("Retry-After", () => {
  it("a 429 asking for 3 s is retried after exactly 3 s each time, with no backoff of the client's own on top", async () => {
    const m = model([{ status: 429, headers: { "retry-after": "3" } }, { status: 429, headers: { "retry-after": "3" } }, { content: "done" }], 4);
    const reply = await (await m.make()).invoke("hi");
    expect(reply.content).toBe("done");
    expect(m.waits).toEqual([3000, 3000]);
    expect(m.retries).toEqual(["HTTP 429 1/4", "HTTP 429 2/4"]);
    expect(mock!.requests).toHaveLength(3);
  });

  it("a 503 with Retry-After is waited for the same way", async () => {
    const m = model([{ status: 503, headers: { "retry-after": "2" } }, { content: "up again" }], 2);
    expect((await (await m.make()).invoke("hi")).content).toBe("up again");
    expect(m.waits).toEqual([2000]);
  });

  it("stops after maxRetries waits: the client does not retry the same 429 again", async () => {
    const busy = { status: 429, headers: { "retry-after": "1" } };
    const m = model([busy, busy, busy, busy, { content: "unused" }], 2);
    const error = await (await m.make()).invoke("hi").then(
      () => null,
      (e: unknown) => e,
    );
    expect(toProviderError(error, { baseURL: mock!.url, model: "gpt-test", apiKeyEnv: "OPENAI_API_KEY" })).toMatchObject({ status: 429 });
    expect(m.waits).toEqual([1000, 1000]);
    expect(mock!.requests).toHaveLength(3);
  });

  it("a used-up quota is not waited for, whatever the header says", async () => {
    const m = model([{ status: 429, headers: { "retry-after": "1" }, content: "You exceeded your current quota" }, { content: "unused" }], 3);
    await (await m.make()).invoke("hi").catch(() => {});
    expect(m.waits).toEqual([]);
    expect(mock!.requests).toHaveLength(1);
  });
});
