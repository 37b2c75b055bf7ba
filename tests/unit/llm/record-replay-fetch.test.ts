import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { ConfigError } from "../../../src/errors.js";
import { createRecorder, type FetchLike, type RecordedExchange } from "../../../src/llm/recording.js";
import { createReplayer, loadSession } from "../../../src/llm/recording-replay.js";
import { tempDir } from "../../helpers/per-test.js";

let dir: string;
beforeEach(({ onTestFinished }) => {
  dir = tempDir(onTestFinished, "yolo-recording-");
});

const URL_ = "http://127.0.0.1:1/v1/chat/completions";
const ctx = { root: "/work/proj", threadId: "abcd1234" };

function body(agent: string, content: string) {
  return JSON.stringify({
    model: "m",
    stream: true,
    messages: [
      { role: "system", content: `You are the ${agent} agent` },
      { role: "user", content },
    ],
  });
}

/** A fake provider: answers each request with a two-chunk SSE stream naming the request's last message. */
const provider: FetchLike = async (_input, init) => {
  const last = (JSON.parse(String(init?.body)) as { messages: { content: string }[] }).messages.at(-1)!.content;
  const stream = new ReadableStream({
    start(c) {
      c.enqueue(new TextEncoder().encode(`data: {"echo":"${last}"}\n\n`));
      c.enqueue(new TextEncoder().encode("data: [DONE]\n\n"));
      c.close();
    },
  });
  return new Response(stream, { status: 200, headers: { "content-type": "text/event-stream" } });
};

async function record(file: string, requests: [string, string][], append = false): Promise<string[]> {
  const recorder = createRecorder({ file, append, context: ctx, fetch: provider });
  const seen: string[] = [];
  for (const [agent, content] of requests) seen.push(await (await recorder.fetch(URL_, { method: "POST", body: body(agent, content) })).text());
  await recorder.flush();
  return seen;
}

describe("--record writes every exchange; --replay serves them back", () => {
  it("passes the streamed response through untouched and records it with the request, root and thread normalised", async () => {
    const file = join(dir, "s.jsonl");
    const seen = await record(file, [
      ["analyst", "in /work/proj for abcd1234"],
      ["pm", "two"],
    ]);
    expect(seen[0]).toBe('data: {"echo":"in /work/proj for abcd1234"}\n\ndata: [DONE]\n\n');
    const lines = readFileSync(file, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as RecordedExchange);
    expect(lines.map((l) => l.agent)).toEqual(["analyst", "pm"]);
    expect(lines[0].request.messages).toEqual([
      { role: "system", content: "You are the analyst agent" },
      { role: "user", content: "in <root> for <thread>" },
    ]);
    expect(lines[0].response).toEqual({ status: 200, contentType: "text/event-stream", body: seen[0] });
    expect(JSON.stringify(lines)).not.toMatch(/authorization/i);
  });

  it("starts a new file for a run and appends on a resume", async () => {
    const file = join(dir, "s.jsonl");
    await record(file, [["analyst", "one"]]);
    await record(file, [["pm", "two"]], true);
    expect(loadSession(file).map((e) => e.agent)).toEqual(["analyst", "pm"]);
    await record(file, [["dev", "three"]]);
    expect(loadSession(file).map((e) => e.agent)).toEqual(["dev"]);
  });

  it("replays in order, and in a new process continues part-way through (a resumed thread)", async () => {
    const file = join(dir, "s.jsonl");
    const recorded = await record(file, [
      ["analyst", "one"],
      ["pm", "two"],
      ["dev", "three"],
    ]);
    const again = createReplayer({ exchanges: loadSession(file), context: { root: "/elsewhere", threadId: "zzzz9999" }, file });
    // A resume's first request is the recording's second: it is found, and the next one follows in order.
    expect(await (await again.fetch(URL_, { method: "POST", body: body("pm", "two") })).text()).toBe(recorded[1]);
    expect(await (await again.fetch(URL_, { method: "POST", body: body("dev", "three") })).text()).toBe(recorded[2]);
    expect(again.served()).toBe(2);
  });

  it("matches a request from another project root and thread once both are normalised", async () => {
    const file = join(dir, "s.jsonl");
    const recorded = await record(file, [["dev", "read /work/proj/src (thread abcd1234)"]]);
    const replay = createReplayer({ exchanges: loadSession(file), context: { root: "/tmp/copy", threadId: "newid000" }, file });
    const r = await replay.fetch(URL_, { method: "POST", body: body("dev", "read /tmp/copy/src (thread newid000)") });
    expect(r.status).toBe(200);
    expect(await r.text()).toBe(recorded[0]);
  });

  it("answers a request the session does not hold with a 400 naming the agent and the first difference", async () => {
    const file = join(dir, "s.jsonl");
    await record(file, [["analyst", "Add an add function"]]);
    const replay = createReplayer({ exchanges: loadSession(file), context: ctx, file });
    const r = await replay.fetch(URL_, { method: "POST", body: body("analyst", "Add a subtract function") });
    expect(r.status).toBe(400);
    expect(r.headers.get("x-should-retry")).toBe("false");
    const { error } = (await r.json()) as { error: { message: string; code: string } };
    expect(error.code).toBe("replay_mismatch");
    expect(error.message).toContain("the analyst agent's request (model call 1 of this run)");
    expect(error.message).toContain('messages[1] (user).content differs at character 5: recorded "Add an add function", now "Add a subtract function"');
  });

  it("says so when every recorded exchange was already served", async () => {
    const file = join(dir, "s.jsonl");
    await record(file, [["analyst", "one"]]);
    const replay = createReplayer({ exchanges: loadSession(file), context: ctx, file });
    await replay.fetch(URL_, { method: "POST", body: body("analyst", "one") });
    const r = await replay.fetch(URL_, { method: "POST", body: body("pm", "two") });
    expect(((await r.json()) as { error: { message: string } }).error.message).toMatch(
      /the pm agent's request .* all 1 recorded exchanges were already served/,
    );
  });

  it("refuses a missing, empty or malformed session file before anything runs", () => {
    expect(() => loadSession(join(dir, "nope.jsonl"))).toThrow(ConfigError);
    writeFileSync(join(dir, "empty.jsonl"), "\n");
    expect(() => loadSession(join(dir, "empty.jsonl"))).toThrow(/holds no recorded exchanges/);
    writeFileSync(join(dir, "bad.jsonl"), '{"v":1,"request":{},"response":{"status":200,"body":""}}\nnot json\n{"v":9}\n');
    expect(() => loadSession(join(dir, "bad.jsonl"))).toThrow(/line 2: not JSON[\s\S]*line 3: session format version 9/);
  });
});
