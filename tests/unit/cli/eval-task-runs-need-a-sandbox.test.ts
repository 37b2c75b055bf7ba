import { describe, expect, it } from "vitest";
import { childSpec } from "../../../src/cli/commands/eval-run.js";
import type { EvalFlags } from "../../../src/cli/commands/eval.js";

// The judge trusts a task run's events and records only when the agents could not write them: where the eval has a
// sandbox, a task run that would fall back to none must stop instead (exit 2, run again by the next eval).
describe("the task runs of an eval with a sandbox", () => {
  const flags = { name: "t" } as EvalFlags;

  it("require one: a run whose bubblewrap fails ends rather than running without it", () => {
    expect(childSpec(flags, "pin", "/p", "bwrap").env.YOLO_SANDBOX).toBe("required");
  });

  it("an eval without a sandbox leaves the setting as it was (its judge reuses nothing)", () => {
    const before = process.env.YOLO_SANDBOX;
    expect(childSpec(flags, "pin", "/p", "none").env.YOLO_SANDBOX).toBe(before);
  });
});
