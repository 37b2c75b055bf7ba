import { describe, expect, it, vi } from "vitest";
import type { YoloEvent } from "../../../src/events/schema.js";
import { createPlainRenderer } from "../../../src/ui/plain-renderer.js";
import { initialViewState, reduce } from "../../../src/ui/view-state.js";
import { base } from "./ink-fixtures.js";

const hookRun = (more: Partial<Extract<YoloEvent, { type: "hook.result" }>>): YoloEvent => ({
  ...base,
  type: "hook.result",
  event: "PreToolUse",
  hook: "sh guard.sh",
  source: "user",
  node: "dev",
  tool: "run_command",
  decision: "none",
  blocked: false,
  exitCode: 0,
  durationMs: 12,
  ...more,
});

function plain(events: YoloEvent[]): string {
  vi.stubEnv("TZ", "UTC");
  let out = "";
  const r = createPlainRenderer((s) => (out += s));
  for (const e of events) r.onEvent(e);
  vi.unstubAllEnvs();
  return out;
}

describe("hook runs in the plain and live views", () => {
  it("refusals, blocks, stops and failures get a line; hooks that let the step go on do not", () => {
    const out = plain([
      hookRun({ decision: "none" }),
      hookRun({ decision: "allow" }),
      hookRun({ decision: "deny", blocked: true, exitCode: 2, reason: "rm is not allowed" }),
      hookRun({ event: "PostToolUse", tool: "write_file", decision: "block", blocked: true, exitCode: 2, reason: "lint failed" }),
      hookRun({ decision: "timeout", blocked: true, exitCode: null, reason: "did not finish within 5s and was killed" }),
      hookRun({ event: "NodeEnd", tool: undefined, decision: "error", blocked: false, exitCode: 1, reason: "exit 1: boom" }),
      hookRun({ event: "NodeStart", tool: undefined, decision: "stop", blocked: true, reason: "change freeze" }),
    ]);
    expect(out.split("\n").filter(Boolean)).toEqual([
      "12:00:30   ⊘ hook refused run_command (PreToolUse `sh guard.sh`): rm is not allowed",
      "12:00:30   ⊘ hook blocked write_file (PostToolUse `sh guard.sh`): lint failed",
      "12:00:30   ⊘ PreToolUse hook `sh guard.sh` failed (timeout), so run_command was refused: did not finish within 5s and was killed",
      "12:00:30   ⊘ NodeEnd hook `sh guard.sh` failed: exit 1: boom",
      "12:00:30   ⊘ hook stopped the run (NodeStart `sh guard.sh`): change freeze",
    ]);
  });

  it("the live view keeps them as warning notices", () => {
    const state = [hookRun({ decision: "none" }), hookRun({ decision: "deny", blocked: true, reason: "no" })].reduce(reduce, initialViewState);
    expect(state.notices).toEqual([{ level: "warning", text: "hook refused run_command (PreToolUse `sh guard.sh`): no" }]);
  });
});
