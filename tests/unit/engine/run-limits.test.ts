import { describe, expect, it } from "vitest";
import { checkRunLimits, withRunLimits } from "../../../src/engine/nodes/run-limits.js";
import type { PipelineStateType } from "../../../src/state/pipeline.js";
import { errorText } from "../../../src/cli/wording/error-text.js";
import { LimitError } from "../../../src/errors.js";

const limits = { maxSteps: 3, maxTimeMs: 1_000 };
const state = (steps: number, activeMs: number) => ({ steps, activeMs }) as PipelineStateType;

describe("the thread's step and time limits, checked before each node", () => {
  it("lets a node run below both limits", () => {
    expect(() => checkRunLimits("dev", state(2, 999), limits)).not.toThrow();
  });

  it("stops at the step limit with kind steps, naming the node; the CLI's words name the flag that raises it", () => {
    const stop = () => checkRunLimits("dev", state(3, 0), limits);
    expect(stop).toThrow(LimitError);
    expect(stop).toThrow(/step limit: 3 of 3 steps, resumes included, before dev.*limits\.maxSteps/);
    try {
      stop();
      expect.unreachable();
    } catch (error) {
      expect((error as LimitError).kind).toBe("steps");
      expect((error as Error).message).not.toMatch(/yolo |--max/);
      expect(errorText(error, { thread: "t1" })).toMatch(/before dev\. .*\(yolo resume t1 --max-steps N\)/);
    }
  });

  it("stops at the time limit with kind time", () => {
    try {
      checkRunLimits("tea", state(0, 1_000), limits);
      expect.unreachable();
    } catch (error) {
      expect(error).toMatchObject({ kind: "time" });
      expect((error as Error).message).toMatch(/time limit: 1s of 1s active, resumes included, before tea\./);
      expect(errorText(error, { thread: "t1" })).toMatch(/before tea\. .*\(yolo resume t1 --max-time 1h\)/);
    }
  });

  it("no time limit configured: active time never stops a run", () => {
    expect(() => checkRunLimits("dev", state(0, 10 ** 9), { maxSteps: 3, maxTimeMs: null })).not.toThrow();
  });

  it("a completed node adds one step and its duration; a node that throws adds nothing and does not run past the limit", async () => {
    const node = withRunLimits(
      "dev",
      async () => {
        await new Promise((r) => setTimeout(r, 30));
        return { devSummary: "done" };
      },
      limits,
    );
    const update = await node(state(0, 0), {});
    expect(update).toMatchObject({ devSummary: "done", steps: 1 });
    expect(update.activeMs).toBeGreaterThanOrEqual(25);

    let ran = false;
    const refused = withRunLimits("dev", async () => ((ran = true), {}), limits);
    await expect(refused(state(3, 0), {})).rejects.toMatchObject({ kind: "steps" });
    expect(ran).toBe(false);
  });
});
