import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { ProviderError } from "../../src/errors.js";
import { toProviderError } from "../../src/llm/errors.js";
import { createChatModel } from "../../src/llm/model.js";
import { startMockOpenAI, type MockOpenAI } from "../helpers/mock-openai.js";

// Provider faults through the real ChatOpenAI client: every one ends as an answer (after retries) or as a typed
// ProviderError, never as an untyped crash or a hang; 400/401/403/404 are sent exactly once.

const servers: (Server | MockOpenAI)[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    if ("url" in s) await s.close();
    else
      await new Promise((r) => {
        s.closeAllConnections();
        s.close(r);
      });
  }
});

const OK_SSE = `${[
  { choices: [{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }] },
  { choices: [{ index: 0, delta: { content: "hello" }, finish_reason: null }] },
  { choices: [{ index: 0, delta: {}, finish_reason: "stop" }] },
]
  .map((c) => `data: ${JSON.stringify({ id: "x", object: "chat.completion.chunk", created: 0, model: "m", ...c })}\n\n`)
  .join("")}data: [DONE]\n\n`;

// A raw server whose n-th request gets the n-th behaviour (the last one repeats).
async function faulty(behaviours: ("reset" | "idle" | "ok")[]): Promise<{ url: string; count: () => number }> {
  let n = 0;
  const server = createServer((req, res) => {
    const b = behaviours[Math.min(n++, behaviours.length - 1)];
    req.resume();
    if (b === "reset") return void req.socket.destroy();
    res.writeHead(200, { "content-type": "text/event-stream" });
    if (b === "idle") return void res.write(`${OK_SSE.split("\n\n")[0]}\n\n`);
    res.end(OK_SSE);
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, count: () => n };
}

async function stream(baseURL: string, maxRetries: number, timeoutS = 5, onRetry?: (reason: string) => void): Promise<{ text?: string; error?: unknown }> {
  const model = createChatModel({ name: "m", baseURL, apiKey: "k", temperature: null, maxRetries, timeoutS, onRetry });
  try {
    let text = "";
    for await (const chunk of await model.stream("hi")) text += String(chunk.content);
    return { text };
  } catch (raw) {
    return { error: toProviderError(raw, { apiKeyEnv: "K", baseURL, model: "m" }) ?? raw };
  }
}

describe("provider faults", () => {
  it("a connection reset is retried and the answer arrives", async () => {
    const server = await faulty(["reset", "reset", "ok"]);
    expect(await stream(server.url, 3)).toEqual({ text: "hello" });
    expect(server.count()).toBe(3);
  });

  it("says why each retried call failed (a refused connection, an HTTP status), and nothing for a call not retried", async () => {
    const refused = await faulty(["ok"]);
    const url = refused.url;
    await new Promise<void>((r) => servers.pop()!.close(() => r()));
    const reasons: string[] = [];
    const { error } = await stream(url, 2, 5, (reason) => reasons.push(reason));
    expect(error).toBeInstanceOf(ProviderError);
    expect(reasons.length).toBeGreaterThanOrEqual(2);
    expect(reasons[0]).toBe("ECONNREFUSED");

    const mock = await startMockOpenAI([{ status: 503, headers: { "retry-after": "0" } }, { content: "hello" }]);
    servers.push(mock);
    const seen: string[] = [];
    expect(await stream(mock.url, 2, 5, (reason) => seen.push(reason))).toEqual({ text: "hello" });
    expect(seen).toEqual(["HTTP 503"]);

    const denied = await startMockOpenAI([{ status: 401 }]);
    servers.push(denied);
    const none: string[] = [];
    await stream(denied.url, 2, 5, (reason) => none.push(reason));
    expect(none).toEqual([]);
  });

  it("resets beyond the retries end as a typed ProviderError", async () => {
    const server = await faulty(["reset"]);
    const { error } = await stream(server.url, 1);
    expect(error).toBeInstanceOf(ProviderError);
  });

  it("a stream that goes idle mid-answer ends as a typed ProviderError within the timeout", async () => {
    const server = await faulty(["idle"]);
    const started = Date.now();
    const { error } = await stream(server.url, 0, 1);
    expect(error).toBeInstanceOf(ProviderError);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it("429 with Retry-After and 5xx are retried; 400/401/403/404 are sent exactly once", async () => {
    for (const status of [429, 500, 502, 503]) {
      const mock = await startMockOpenAI([{ status, headers: { "retry-after": "0" } }, { content: "hello" }]);
      servers.push(mock);
      expect(await stream(mock.url, 2), `status ${status}`).toEqual({ text: "hello" });
      expect(mock.requests).toHaveLength(2);
    }
    for (const status of [400, 401, 403, 404]) {
      const mock = await startMockOpenAI([{ status }, { content: "never" }]);
      servers.push(mock);
      const { error } = await stream(mock.url, 3);
      expect(error, `status ${status}`).toBeInstanceOf(ProviderError);
      expect(mock.requests, `status ${status}`).toHaveLength(1);
    }
  });
});
