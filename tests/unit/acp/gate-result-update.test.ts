import { describe, expect, it } from "vitest";
import { gateResult as gateUpdate } from "../../../src/acp/gate-update.js";
import type { YoloEvent } from "../../../src/events/schema.js";
import { gateResult } from "../../helpers/gate-result.js";

const at = { v: 1, thread: "t1", ts: "2026-01-01T00:00:00Z", type: "gate.result", node: "tea" } as const;

/** A judged gate run reaches the editor per test: fixed, regressed, still failing, as lists and as data. */
describe("a gate result as an ACP update", () => {
  it("lists each group of tests under its heading and gives the same groups in rawOutput", () => {
    const gate = gateResult({
      name: "test",
      passed: false,
      exitCode: 1,
      passedCount: 5,
      failedCount: 2,
      attempt: 1,
      reading: "structured",
      failures: ["add > subtracts", "old > broken"],
      fixed: ["add > adds"],
      regressions: ["add > subtracts"],
      preExisting: ["old > broken"],
      knownFailures: [{ id: "net > fetch", declaredIn: "yolo.config.ts" }],
    });
    const update = gateUpdate({ ...at, gate } as YoloEvent & { type: "gate.result" });
    expect(update).toMatchObject({ sessionUpdate: "tool_call_update", toolCallId: "gate:tea:test:1", status: "failed" });
    const text = (update as { content: { content: { text: string } }[] }).content[0].content.text;
    expect(text).toBe(
      [
        "test: failed, exit 1 (5 passed, 2 failed)",
        "Fixed (1):\n- add > adds",
        "Regressed (1):\n- add > subtracts",
        "Still failing (1):\n- old > broken",
        "Known failures (not blocking) (1):\n- net > fetch",
      ].join("\n"),
    );
    expect((update as { rawOutput: unknown }).rawOutput).toEqual({
      gate: "test",
      passed: false,
      baseline: false,
      exitCode: 1,
      passedCount: 5,
      failedCount: 2,
      reading: "structured",
      fixed: ["add > adds"],
      regressed: ["add > subtracts"],
      stillFailing: ["old > broken"],
      newFailures: [],
      newPassing: [],
      knownFailures: ["net > fetch"],
    });
  });

  it("shows a baseline's failures as they are, and cuts a long group at ten names", () => {
    const many = Array.from({ length: 12 }, (_, i) => `t${i}`);
    const baseline = gateUpdate({ ...at, gate: gateResult({ name: "test", passed: false, exitCode: 1, baseline: true, failures: ["a > b"] }) } as never);
    expect((baseline as { content: { content: { text: string } }[] }).content[0].content.text).toMatch(/\n- a > b$/);
    const fixed = gateUpdate({ ...at, gate: gateResult({ name: "test", passed: true, exitCode: 0, fixed: many }) } as never);
    expect((fixed as { content: { content: { text: string } }[] }).content[0].content.text).toContain("- t9\n- … 2 more");
  });
});
