import { describe, expect, it, onTestFinished } from "vitest";
import { type YoloEvent, yoloEventSchema } from "../../../src/events/schema.js";
import { EVENT_SCHEMA_VERSION } from "../../../src/events/version.js";
import { readRecord, RecordWriter, STREAM_RECORD_CAP } from "../../../src/acp/session-record.js";
import { tempDir } from "../../helpers/per-test.js";

const base = { v: EVENT_SCHEMA_VERSION, thread: "t1", ts: "2026-01-01T00:00:00.000Z" };
const ev = (e: Record<string, unknown>): YoloEvent => yoloEventSchema.parse({ ...base, ...e });
const token = (node: string, text: string) => ev({ type: "token", node, text });
const events = (cwd: string) => (readRecord(cwd, "s1") ?? []).flatMap((l) => ("event" in l ? [l.event] : []));

describe("a session's record keeps streamed words, one line per stretch of one agent's text", () => {
  it("coalesces an agent's tokens and its thinking apart, ends a stretch at another event, another agent, and the leg's end", () => {
    const cwd = tempDir(onTestFinished);
    const w = new RecordWriter(cwd, "s1");
    w.write(ev({ type: "thought", node: "analyst", text: "Think " }));
    w.write(ev({ type: "thought", node: "analyst", text: "first." }));
    for (const t of ["I read ", "the requirement", "."]) w.write(token("analyst", t));
    w.write(ev({ type: "node.started", node: "pm", fixAttempt: 0 }));
    w.write(token("pm", "Stories: "));
    w.write(token("pm", "one."));
    w.write(ev({ type: "token", node: "dev", story: "s-1", text: "Writing." }));
    w.flush();
    expect(events(cwd).map((e) => ("text" in e ? `${e.type} ${e.node}: ${e.text}` : e.type))).toEqual([
      "thought analyst: Think first.",
      "token analyst: I read the requirement.",
      "node.started",
      "token pm: Stories: one.",
      "token dev: Writing.",
    ]);
  });

  it("keeps at most STREAM_RECORD_CAP characters of one stretch, and says it cut", () => {
    const cwd = tempDir(onTestFinished);
    const w = new RecordWriter(cwd, "s1");
    const chunk = "x".repeat(10_000);
    for (let i = 0; i < 10; i++) w.write(token("dev", chunk));
    w.flush();
    const [kept] = events(cwd);
    expect(kept.type === "token" && kept.text).toBe(`${"x".repeat(STREAM_RECORD_CAP)} […]`);
  });
});
