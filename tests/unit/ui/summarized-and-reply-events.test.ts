import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { YoloEvent } from "../../../src/events/schema.js";
import { createJsonRenderer } from "../../../src/ui/json-renderer.js";
import { createPlainRenderer } from "../../../src/ui/plain-renderer.js";
import { createTranscript } from "../../../src/ui/transcript.js";
import { initialViewState, reduce } from "../../../src/ui/view-state.js";

const env = { v: 1 as const, thread: "t1", ts: "2025-05-01T12:00:00.000Z" };
const summarized: YoloEvent = {
  ...env,
  type: "context.summarized",
  node: "dev",
  agent: "dev",
  tokensBefore: 12_345,
  tokensAfter: 3_100,
  threshold: 9_000,
  replacedMessages: 14,
};
const reply: YoloEvent = { ...env, type: "reply", node: "chat", text: "It is a demo.\n\nTests run with `node --test`." };

function plain(events: YoloEvent[], verbose = false): string {
  let out = "";
  const r = createPlainRenderer((s) => (out += s), { verbose });
  for (const e of events) r.onEvent(e);
  return out;
}

describe("context.summarized and reply in every renderer", () => {
  beforeEach(() => vi.stubEnv("TZ", "UTC"));
  afterEach(() => vi.unstubAllEnvs());

  it("plain: one line for a summary (verbose or not), and a reply printed whole", () => {
    for (const verbose of [false, true]) {
      expect(plain([summarized], verbose)).toBe("12:00:00 ~ dev: older turns summarized, ~12,345 → 3,100 tokens (threshold 9,000)\n");
    }
    expect(plain([reply])).toBe("12:00:00 ◆ chat answers:\n           It is a demo.\n           \n           Tests run with `node --test`.\n");
  });

  it("verbose scrollback of the live view: the summary line", () => {
    expect(createTranscript().push(summarized)).toEqual(["  dev: older turns summarized, ~12,345 → 3,100 tokens (threshold 9,000)"]);
  });

  it("live view: a summary is an info notice, a reply is kept and summarizes its agent's row", () => {
    const started: YoloEvent = { ...env, type: "run.started", requirement: "q", model: "m", resumed: false, nodes: ["chat"], logFile: "/l", mode: "chat" };
    const state = [started, summarized, reply].reduce(reduce, initialViewState);
    expect(state.notices).toEqual([{ level: "info", text: "dev: older turns summarized, ~12,345 → 3,100 tokens (threshold 9,000)" }]);
    expect(state.reply).toBe(reply.type === "reply" ? reply.text : "");
    expect(state.agents.find((a) => a.id === "chat")?.summary).toBe("It is a demo. Tests run with `node --test`.");
  });

  it("--json: both as they were emitted", () => {
    let out = "";
    const r = createJsonRenderer((s) => (out += s));
    r.onEvent(summarized);
    r.onEvent(reply);
    expect(
      out
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l)),
    ).toEqual([summarized, reply]);
  });
});
