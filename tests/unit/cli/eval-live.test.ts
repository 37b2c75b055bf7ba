import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { liveTable, plainProgress, wantsLiveTable } from "../../../src/cli/eval-live.js";
import { notRunResult } from "../../../src/eval/budget.js";
import { EvalProgress } from "../../../src/eval/progress.js";
import type { EvalTask } from "../../../src/eval/types.js";

const TASK = { v: 1, id: "t1", commit: "c", parent: "p", requirement: "r", testFiles: [], sourceFiles: [], gates: [], targets: ["x"], guards: [] } as EvalTask;

function sink(): { out: PassThrough; text: () => string } {
  const out = new PassThrough();
  let text = "";
  out.on("data", (d) => {
    text += String(d);
  });
  return { out, text: () => text };
}

describe("an eval's progress output", () => {
  it("on a terminal redraws the table in place under each judged task's line, and clears it at the end", () => {
    const { out, text } = sink();
    const progress = new EvalProgress(["m"], 1);
    const live = liveTable(progress, out);
    const first = text();
    expect(first.split("\n")).toHaveLength(4); // header, m, all, and the final newline
    expect(first).not.toContain("\x1b");
    progress.finished(notRunResult(TASK, "m", "spent", "hidden"));
    live.finished(notRunResult(TASK, "m", "spent", "hidden"));
    // Cursor up over the three table lines, clear below, the task's line, the table again.
    expect(text().slice(first.length)).toMatch(/^\x1b\[3F\x1b\[J\[1\/1, 0 resolved, 0 tokens, cost 0\.0000 \| m: 1\/1, 0 resolved\] m t1: not-run .*\nmodel/);
    live.close();
    expect(text().endsWith("\x1b[3F\x1b[J")).toBe(true);
  });

  it("in a pipe writes one plain line per judged task and no control codes", () => {
    const { out, text } = sink();
    const progress = new EvalProgress(["m"], 1);
    const plain = plainProgress(progress, out);
    plain.started();
    progress.finished(notRunResult(TASK, "m", "spent", "hidden"));
    plain.finished(notRunResult(TASK, "m", "spent", "hidden"));
    plain.close();
    expect(text()).toBe("[1/1, 0 resolved, 0 tokens, cost 0.0000 | m: 1/1, 0 resolved] m t1: not-run (not run (budget): spent before it started)\n");
  });

  it("draws the live table only on a terminal outside CI and not on a dumb one", () => {
    expect(wantsLiveTable(true, {})).toBe(true);
    expect(wantsLiveTable(false, {})).toBe(false);
    expect(wantsLiveTable(true, { CI: "true" })).toBe(false);
    expect(wantsLiveTable(true, { TERM: "dumb" })).toBe(false);
  });
});
