import { readFileSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { yoloEventSchema, type YoloEvent } from "../../../src/events/schema.js";
import { createPlainRenderer, type PlainRendererOptions } from "../../../src/ui/plain-renderer.js";

const FIXTURE = new URL("../../fixtures/events/pipeline-run.json", import.meta.url);

// The recorded events of a whole run, checked against the event schema.
function recordedRun(): YoloEvent[] {
  return z.array(yoloEventSchema).parse(JSON.parse(readFileSync(FIXTURE, "utf8")));
}

// Renders events and returns the output split into lines.
function render(events: YoloEvent[], opts: PlainRendererOptions = {}): string[] {
  let out = "";
  const r = createPlainRenderer((s) => (out += s), opts);
  for (const e of events) r.onEvent(e);
  expect(out.endsWith("\n")).toBe(true);
  return out.slice(0, -1).split("\n");
}

const envelope = { v: 1 as const, thread: "k3f9x2ab", ts: "2025-05-01T12:00:40.000Z" };

describe("plain renderer", () => {
  beforeEach(() => {
    vi.stubEnv("TZ", "UTC");
  });
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it("reads a fixture that is valid against the event schema", () => {
    const raw: unknown[] = JSON.parse(readFileSync(FIXTURE, "utf8"));
    for (const e of raw) expect(yoloEventSchema.safeParse(e).success).toBe(true);
    expect(raw.length).toBeGreaterThan(20);
  });

  it("prints one timestamped line per meaningful event of a whole run", () => {
    const lines = render(recordedRun());
    expect(lines[0]).toBe("12:00:01 yolo thread k3f9x2ab · Add an add(a, b) function to src/add.js that returns the su… · model gpt-4o-mini");
    expect(lines).toContain("12:00:02 ▶ analyst");
    expect(lines).toContain("12:00:05   read_file package.json");
    expect(lines).toContain("12:00:05   ✓ read_file package.json (18 lines)");
    expect(lines).toContain("12:00:15   ✗ read_file nope.txt: ENOENT: no such file or directory, open 'nope.txt'");
    expect(lines).toContain("12:00:16   ✓ write_file src/add.js (+3 −0)");
    expect(lines).toContain("12:00:09 ✔ analyst: Brief: add(a, b) in src/add.js returning a + b, tested with node:test in test/add.test.js.");
    expect(lines).toContain("12:00:14 → pm → dev (no architecture needed)");
    expect(lines).toContain("12:00:23 ▶ dev (fix attempt 1)");
    expect(lines).toContain("12:00:20 gate test: FAIL exit 1 (3 passed, 2 failed) — first failures: add adds two numbers, add handles negatives");
    expect(lines).toContain("12:00:30 gate test: PASS exit 0 (5 passed, 0 failed) · attempt 2");
    expect(lines).toContain("12:00:31 ! warning: gate lint has no command configured; skipped");
    expect(lines.slice(-3)).toEqual([
      "12:01:02 ✔ run passed (exit 0) in 1m 01s: gate test passed",
      "         files changed (2): src/add.js, test/add.test.js",
      "         tokens 12,100 (in 10,500 / out 1,600) in 9 model calls",
    ]);
    for (const line of lines) expect(line).toMatch(/^(\d\d:\d\d:\d\d| {8}) /);
  });

  it("never prints tokens, usage (unless verbose) or an escape sequence", () => {
    for (const verbose of [false, true]) {
      const text = render(recordedRun(), { verbose }).join("\n");
      expect(text).not.toContain("\x1b");
      expect(text).not.toContain("Reading the repository");
      expect(text.includes("tokens analyst: 1,500 (in 1,200 / out 300, 2 calls)")).toBe(verbose);
    }
  });

  it("shows a failing gate's cleaned output tail and log file when verbose", () => {
    const lines = render(recordedRun(), { verbose: true });
    expect(lines).toContain("           │ not ok 1 - add adds two numbers");
    expect(lines).toContain("           full output: .yolo/gates/k3f9x2ab-test-1.log");
    expect(lines).toContain("         log .yolo/logs/k3f9x2ab.log");
  });

  it("keeps lines within 160 characters by cutting the middle of long summaries", () => {
    const summary = `START ${"word ".repeat(100)}END`;
    const lines = render([
      { ...envelope, type: "node.completed", node: "dev", summary },
      { ...envelope, type: "tool.result", node: "dev", tool: "run_command", callId: "c", ok: true, summary },
    ]);
    for (const line of lines) {
      expect(Array.from(line).length).toBeLessThanOrEqual(160);
      expect(line).toContain("START");
      expect(line).toContain("END");
      expect(line).toContain("…");
    }
  });

  it("wraps a long warning whole, within 160 characters a line, so the fix at its end is never cut", () => {
    const message = `No gate was found ${"and more words ".repeat(15)}; set requireGate: true in yolo.config.ts (requireGate) or run yolo hooks trust`;
    const lines = render([{ ...envelope, type: "warning", message }]);
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines) expect(Array.from(line).length).toBeLessThanOrEqual(160);
    expect(lines[0]).toMatch(/^\d\d:\d\d:\d\d ! warning: No gate was found/);
    expect(lines.join(" ")).not.toContain("…");
    expect(
      lines
        .map((l) => l.trim())
        .join(" ")
        .replace(/^\S+ ! warning: /, ""),
    ).toBe(message);
  });

  it("says how many prompt tokens were cached, when the provider reported any", () => {
    const done = (cachedTokens?: number) =>
      render([
        {
          ...envelope,
          type: "run.completed",
          status: "passed",
          exitCode: 0,
          reason: "completed",
          usage: { promptTokens: 10_500, completionTokens: 1_600, totalTokens: 12_100, calls: 9, ...(cachedTokens === undefined ? {} : { cachedTokens }) },
          filesChanged: [],
          resumeCommand: null,
        },
      ]).find((l) => l.includes("tokens"));
    expect(done(4_000)).toBe("         tokens 12,100 (in 10,500, 4,000 cached / out 1,600) in 9 model calls");
    expect(done(0)).toBe("         tokens 12,100 (in 10,500 / out 1,600) in 9 model calls");
    expect(done()).toBe("         tokens 12,100 (in 10,500 / out 1,600) in 9 model calls");
  });

  it("prints a question on its own lines with the command that answers it", () => {
    const resumeCommand = 'yolo resume k3f9x2ab --answer "<your answer>"';
    const lines = render([
      {
        ...envelope,
        type: "interrupt",
        node: "escalate",
        askedBy: "architect",
        question: "Should add() accept strings?\nIf so, should it coerce them to numbers?",
        resumeCommand,
      },
      {
        ...envelope,
        type: "run.completed",
        status: "waiting",
        exitCode: 3,
        reason: "architect asked a question",
        usage: { promptTokens: 10, completionTokens: 5, totalTokens: 15, calls: 1 },
        filesChanged: [],
        resumeCommand,
      },
    ]);
    expect(lines).toEqual([
      "12:00:40 ? architect asks:",
      "             Should add() accept strings?",
      "             If so, should it coerce them to numbers?",
      `           Answer with: ${resumeCommand}`,
      "12:00:40 ? run waiting (exit 3): architect asked a question",
      "         no files changed",
      "         tokens 15 (in 10 / out 5) in 1 model call",
      `         resume: ${resumeCommand}`,
    ]);
  });

  it("answering inline: no 'Answer with' hint, and the waiting summary only if the user leaves the question for later", async () => {
    const resumeCommand = 'yolo resume k3f9x2ab --answer "<your answer>"';
    const waitingLeg: YoloEvent[] = [
      { ...envelope, type: "interrupt", node: "escalate", askedBy: "analyst", question: "Floats too?", resumeCommand },
      {
        ...envelope,
        type: "run.completed",
        status: "waiting",
        exitCode: 3,
        reason: "analyst asks: Floats too?",
        usage: { promptTokens: 10, completionTokens: 5, totalTokens: 15, calls: 1 },
        filesChanged: [],
        resumeCommand,
      },
    ];
    let out = "";
    const answered = createPlainRenderer((s) => (out += s), { answersInline: true });
    for (const e of waitingLeg) answered.onEvent(e);
    expect(out).toBe("12:00:40 ? analyst asks:\n             Floats too?\n");
    answered.onEvent({ ...recordedRun()[0], resumed: true } as YoloEvent);
    await answered.close();
    expect(out).not.toContain("waiting");
    expect(out).toContain("resumed");

    out = "";
    const declined = createPlainRenderer((s) => (out += s), { answersInline: true });
    for (const e of waitingLeg) declined.onEvent(e);
    await declined.close();
    expect(out).toContain("? run waiting (exit 3)");
    expect(out).toContain(`resume: ${resumeCommand}`);
    expect(out).not.toContain("Answer with");
  });

  it("says when a stop was asked for, and leaves accepted handoffs out", () => {
    let out = "";
    const now = () => new Date("2025-05-01T08:09:10.000Z");
    const r = createPlainRenderer((s) => (out += s), { now });
    r.onEvent({ ...envelope, type: "tool.called", node: "dev", tool: "handoff", callId: "h", args: "{}" });
    r.onEvent({ ...envelope, type: "tool.result", node: "dev", tool: "handoff", callId: "h", ok: true, summary: "handoff accepted" });
    r.onEvent({ ...envelope, type: "tool.result", node: "dev", tool: "handoff", callId: "i", ok: false, summary: "missing summary" });
    r.onStopRequest!("after-step");
    r.onStopRequest!("now");
    expect(out.split("\n").filter(Boolean)).toEqual([
      "12:00:40   ✗ handoff: missing summary",
      "08:09:10 ■ stopping after the current step (Ctrl+C again to stop now)",
      "08:09:10 ■ stopping now",
    ]);
  });

  it("prints errors and strips control characters from engine text", () => {
    const lines = render([{ ...envelope, type: "error", code: "provider", message: "\x1b[31m401 Unauthorized\x1b[0m\nset OPENAI_API_KEY" }]);
    expect(lines).toEqual(["12:00:40 ✗ error provider: 401 Unauthorized set OPENAI_API_KEY"]);
  });

  it("falls back to the clock when an event's timestamp does not parse", () => {
    const now = () => new Date("2025-05-01T08:09:10.000Z");
    const lines = render([{ ...envelope, ts: "garbage", type: "node.started", node: "pm", fixAttempt: 0 }], { now });
    expect(lines).toEqual(["08:09:10 ▶ pm"]);
  });
});
