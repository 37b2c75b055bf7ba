import { describe, expect, it } from "vitest";
import type { HookExecResult } from "../../../src/hooks/exec-hook.js";
import { readVerdict } from "../../../src/hooks/outcome.js";

const ran = (exitCode: number | null, stdout = "", stderr = "", more: Partial<HookExecResult> = {}): HookExecResult => ({
  exitCode,
  timedOut: false,
  aborted: false,
  spawnError: null,
  stdout,
  stderr,
  durationMs: 1,
  ...more,
});
const json = (o: unknown) => ran(0, JSON.stringify(o));

describe("a hook's exit code and output, read as Claude Code documents them", () => {
  it("exit 0 without JSON decides nothing; plain stdout is not context", () => {
    expect(readVerdict("PreToolUse", ran(0, "looks fine\n"), true, 60)).toMatchObject({ decision: "none", blocked: false, context: null });
    expect(readVerdict("PreToolUse", ran(0, "{not json"), true, 60)).toMatchObject({ decision: "none", blocked: false });
  });

  it("exit 2 blocks where blocking means something, with stderr as the reason; elsewhere it is a failure", () => {
    expect(readVerdict("PreToolUse", ran(2, '{"decision":"approve"}', "no rm\n"), false, 60)).toMatchObject({
      decision: "deny",
      blocked: true,
      reason: "no rm",
    });
    expect(readVerdict("PostToolUse", ran(2, "", "lint failed"), false, 60)).toMatchObject({ decision: "block", blocked: true, reason: "lint failed" });
    expect(readVerdict("NodeStart", ran(2, "", "frozen"), false, 60)).toMatchObject({ decision: "block", blocked: true });
    expect(readVerdict("NodeEnd", ran(2, "", "meh"), false, 60)).toMatchObject({ decision: "error", blocked: false, reason: "exit 2: meh" });
    expect(readVerdict("PreToolUse", ran(2), false, 60).reason).toContain("exit 2, no message");
  });

  it("other exits, timeouts and spawn errors are failures that block only when the hook fails closed", () => {
    expect(readVerdict("PreToolUse", ran(1, "", "boom"), true, 60)).toMatchObject({ decision: "error", blocked: true, reason: "exit 1: boom" });
    expect(readVerdict("PreToolUse", ran(1, "", "boom"), false, 60)).toMatchObject({ decision: "error", blocked: false });
    expect(readVerdict("GateEnd", ran(null, "", "", { timedOut: true }), false, 5)).toMatchObject({
      decision: "timeout",
      blocked: false,
      reason: "did not finish within 5s and was killed",
    });
    expect(readVerdict("NodeStart", ran(null, "", "", { spawnError: "spawn /bin/sh ENOENT" }), true, 5)).toMatchObject({
      decision: "error",
      blocked: true,
      reason: "could not start: spawn /bin/sh ENOENT",
    });
  });

  it("PreToolUse: permissionDecision allow / deny / ask, the older decision approve / block, updatedInput and additionalContext", () => {
    const specific = (o: Record<string, unknown>) => json({ hookSpecificOutput: { hookEventName: "PreToolUse", ...o } });
    expect(readVerdict("PreToolUse", specific({ permissionDecision: "deny", permissionDecisionReason: "no" }), false, 60)).toMatchObject({
      decision: "deny",
      blocked: true,
      reason: "no",
    });
    expect(readVerdict("PreToolUse", specific({ permissionDecision: "ask" }), false, 60)).toMatchObject({
      decision: "deny",
      blocked: true,
      reason: expect.stringContaining("person's approval"),
    });
    expect(
      readVerdict("PreToolUse", specific({ permissionDecision: "allow", updatedInput: { command: "ls" }, additionalContext: "ctx" }), false, 60),
    ).toMatchObject({
      decision: "allow",
      blocked: false,
      updatedInput: { command: "ls" },
      context: "ctx",
    });
    expect(readVerdict("PreToolUse", json({ decision: "block", reason: "old" }), false, 60)).toMatchObject({ decision: "deny", reason: "old" });
    expect(readVerdict("PreToolUse", json({ decision: "approve" }), false, 60)).toMatchObject({ decision: "allow" });
    // hookSpecificOutput wins over the older field.
    expect(readVerdict("PreToolUse", json({ decision: "approve", hookSpecificOutput: { permissionDecision: "deny" } }), false, 60)).toMatchObject({
      decision: "deny",
    });
  });

  it("PostToolUse and NodeStart: decision block with its reason; continue: false stops the run, except at RunEnd", () => {
    expect(readVerdict("PostToolUse", json({ decision: "block", reason: "fix the types" }), false, 60)).toMatchObject({
      decision: "block",
      blocked: true,
      reason: "fix the types",
    });
    expect(readVerdict("NodeEnd", json({ decision: "block" }), false, 60)).toMatchObject({ decision: "none", blocked: false });
    expect(readVerdict("GateEnd", json({ continue: false, stopReason: "release freeze" }), false, 60)).toMatchObject({
      decision: "stop",
      blocked: true,
      reason: "release freeze",
    });
    expect(readVerdict("RunEnd", json({ continue: false }), false, 60)).toMatchObject({ decision: "none", blocked: false });
    expect(readVerdict("RunEnd", json({ systemMessage: "posted to chat" }), false, 60)).toMatchObject({ systemMessage: "posted to chat" });
  });
});
