import { describe, it } from "vitest";
import { describeResult, runYolo } from "../helpers/cli.js";
import { analystDone, call, devWrites, director, GOOD_ADD, pmDone, teaSays } from "../helpers/director.js";
import { mockWith, project } from "../helpers/per-test.js";

describe("a run with many model and tool calls", { timeout: 240_000 }, () => {
  it("15 tool calls in one agent: no MaxListenersExceededWarning (or any other warning) on stderr", async ({ expect, onTestFinished }) => {
    const root = project(onTestFinished);
    const reads = Array.from({ length: 13 }, (_, i) => call("write_file", { path: `notes/n${i}.md`, content: `note ${i}\n` }));
    const mock = await mockWith(
      onTestFinished,
      director({ analyst: [analystDone], pm: [pmDone(false)], dev: [...reads, ...devWrites(GOOD_ADD)], tea: [teaSays("PASS")] }),
    );
    const r = await runYolo(["run", "--json", "Add an add(a, b) function to src/add.js"], { cwd: root, baseURL: mock.url });

    expect(r.exitCode, describeResult(r)).toBe(0);
    expect(mock.requests.length).toBeGreaterThan(15);
    expect(r.stderr).not.toMatch(/MaxListenersExceeded|Warning:/);
  });
});
