import { describe, expect, it } from "vitest";
import { modelLine, renderEvalMarkdown } from "../../../src/eval/report.js";
import { summarize } from "../../../src/eval/summary.js";
import type { TaskResult } from "../../../src/eval/types.js";

// The eval's Markdown report goes into PR comments and CI summaries; its cells hold text a provider, a task file or a
// model wrote. A provider's error with an OSC 52 clipboard write, an HTML comment that would hide the rest of the
// report, and a line that forges a table row must all come out as visible text in their own cell.

const FORGED = "provider said \x1b]52;c;ZXZpbA==\x07 then <!-- hidden\n| t9 | m | resolved | 0 | – | – | 0 | 0 | forged |";

function result(over: Partial<TaskResult>): TaskResult {
  return {
    task: "t1",
    model: "m",
    verdict: "error",
    reason: "",
    thread: null,
    exitCode: 5,
    tokens: 0,
    cost: null,
    wallMs: 1000,
    fixAttempts: 0,
    tamperAttempts: 0,
    tamper: [],
    failingTargets: [],
    failingGuards: [],
    tests: "hidden",
    ...over,
  };
}

describe("the eval report escapes what others wrote", () => {
  const results = [result({ reason: FORGED, task: "<img src=x onerror=alert(1)>\x9b2J" }), result({ task: "t2", verdict: "resolved", reason: "ok" })];
  const md = renderEvalMarkdown("nightly\x1b[2J", summarize(results, ["m"]), results, "hidden");

  it("no raw terminal control, no HTML comment or tag, and the forged row is not a row of its own", () => {
    expect(md).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/);
    expect(md).toContain("\\x1b]52;c;ZXZpbA==\\x07");
    expect(md).not.toContain("<!--");
    expect(md).not.toContain("<img");
    expect(md.split("\n").filter((l) => l.startsWith("| t9 "))).toEqual([]);
    // One row per result in the task table, and the forged pipes escaped inside the first one's last cell.
    const rows = md.split("\n").filter((l) => /^\| (&lt;img|t2) /.test(l));
    expect(rows).toHaveLength(2);
    expect(rows[0]).toContain("\\| t9 \\|");
  });

  it("control: plain text is kept as written", () => {
    expect(md).toContain("| t2 | m | resolved |");
    expect(md).toContain("| ok |");
  });

  it("the terminal line makes a model name's controls visible", () => {
    const [s] = summarize([result({ model: "m\x1b]0;title\x07" })], ["m\x1b]0;title\x07"]);
    expect(modelLine(s)).not.toMatch(/\x1b|\x07/);
  });
});
