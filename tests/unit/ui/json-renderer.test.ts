import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { yoloEventSchema, type YoloEvent } from "../../../src/events/schema.js";
import { createJsonRenderer } from "../../../src/ui/json-renderer.js";

const FIXTURE = new URL("../../fixtures/events/pipeline-run.json", import.meta.url);

// The recorded events of a whole run.
function recordedRun(): YoloEvent[] {
  return (JSON.parse(readFileSync(FIXTURE, "utf8")) as unknown[]).map((e) => yoloEventSchema.parse(e));
}

describe("json renderer", () => {
  it("writes one schema-valid JSON line per event and skips tokens", async () => {
    const events = recordedRun();
    const writes: string[] = [];
    const r = createJsonRenderer((s) => writes.push(s));
    for (const e of events) r.onEvent(e);
    await r.close();

    const expected = events.filter((e) => e.type !== "token");
    expect(events.length).toBeGreaterThan(expected.length);
    expect(writes).toHaveLength(expected.length);
    for (const [i, chunk] of writes.entries()) {
      expect(chunk.endsWith("\n")).toBe(true);
      expect(chunk.slice(0, -1)).not.toContain("\n");
      const parsed = yoloEventSchema.parse(JSON.parse(chunk));
      expect(parsed).toEqual(expected[i]);
      expect(parsed.v).toBe(1);
    }
  });

  it("writes nothing for a token", () => {
    const writes: string[] = [];
    createJsonRenderer((s) => writes.push(s)).onEvent({
      v: 1,
      thread: "t",
      ts: "2025-05-01T12:00:00.000Z",
      type: "token",
      node: "dev",
      text: "hi",
    });
    expect(writes).toEqual([]);
  });

  it("writes tokens and thoughts only when asked to (--json-tokens)", () => {
    const at = { v: 1, thread: "t", ts: "2025-05-01T12:00:00.000Z", node: "dev" } as const;
    const streamed: YoloEvent[] = [
      { ...at, type: "thought", text: "hmm" },
      { ...at, type: "token", text: "hi" },
    ];
    const quiet: string[] = [];
    const loud: string[] = [];
    const plain = createJsonRenderer((s) => quiet.push(s));
    const withStreams = createJsonRenderer((s) => loud.push(s), { streams: true });
    for (const e of streamed) {
      plain.onEvent(e);
      withStreams.onEvent(e);
    }
    expect(quiet).toEqual([]);
    expect(loud.map((l) => JSON.parse(l))).toEqual(streamed);
  });
});
