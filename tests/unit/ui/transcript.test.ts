import { describe, expect, it } from "vitest";
import type { YoloEvent } from "../../../src/events/schema.js";
import { createTranscript } from "../../../src/ui/transcript.js";
import { gateResult } from "../../helpers/gate-result.js";

const env = { v: 1 as const, thread: "t1", ts: "2025-05-01T12:00:00.000Z" };
const token = (node: string, text: string): YoloEvent => ({ ...env, type: "token", node, text });

describe("verbose transcript", () => {
  it("prints every streamed token as whole lines, with agent starts, tools and ends around them", () => {
    const t = createTranscript();
    const lines = [
      { ...env, type: "node.started", node: "dev", fixAttempt: 1 },
      token("dev", "Fixing "),
      token("dev", "the sign.\nThen \x1b[31mtests"),
      { ...env, type: "tool.result", node: "dev", tool: "write_file", callId: "a", ok: true, summary: "src/add.js (+1 −1)" },
      token("dev", "Done."),
      { ...env, type: "tool.result", node: "dev", tool: "handoff", callId: "b", ok: true, summary: "handoff accepted" },
      { ...env, type: "node.completed", node: "dev", summary: "fixed" },
    ].flatMap((e) => t.push(e as YoloEvent));
    expect(lines).toEqual(["▶ dev (fix attempt 1)", "  Fixing the sign.", "  Then tests", "  ✓ write_file src/add.js (+1 −1)", "  Done.", "✔ dev: fixed"]);
  });

  it("shows a failing gate's last output lines", () => {
    const gate = gateResult({
      durationMs: 5,
      passedCount: 1,
      failedCount: 1,
      failures: ["adds"],
      tail: "ok 1 - negatives\nnot ok 2 - adds\n\x1b[31m  expected 5\x1b[0m\n",
    });
    expect(createTranscript().push({ ...env, type: "gate.result", node: "tea", gate })).toEqual([
      "  gate test: FAIL exit 1 (1 passed, 1 failed) — first failures: adds",
      "    │ ok 1 - negatives",
      "    │ not ok 2 - adds",
      "    │   expected 5",
    ]);
  });

  it("ends a line when another agent starts streaming, and cuts a line that never ends", () => {
    const t = createTranscript();
    expect([token("a", "half"), token("b", "other\n")].flatMap((e) => t.push(e))).toEqual(["  half", "  other"]);
    const long = t.push(token("b", "x".repeat(1500)));
    expect(long).toHaveLength(1);
    expect(long[0].length).toBe(1502);
  });
});
