import { describe, expect, it } from "vitest";
import type { StoryRun } from "../../../src/state/story-runs.js";
import { mergeStoryRuns } from "../../../src/state/story-runs.js";
import { collectReport } from "../../../src/report/data.js";
import { renderJunit } from "../../../src/report/junit.js";
import { renderMarkdown } from "../../../src/report/markdown.js";
import { orderedStoryRuns } from "../../../src/report/stories.js";
import { findAll, parseXml } from "../../helpers/xml.js";

const usage = (total: number, calls: number) => ({ promptTokens: total - 10, completionTokens: 10, totalTokens: total, calls });
const run = (id: string, over: Partial<StoryRun> = {}): StoryRun => ({
  id,
  title: `Story ${id}`,
  dependsOn: [],
  status: "merged",
  branch: `yolo/t1/${id}`,
  worktree: null,
  filesChanged: [],
  usage: usage(100, 1),
  summary: null,
  conflicts: [],
  ...over,
});
const story = (title: string) => ({ title, as_a: "user", i_want: "it", so_that: "ok", acceptance_criteria: [] });

// The report of a state whose storyRuns were built with the state's own reducer, as the fan-out's updates are.
function reportOf(updates: Array<Record<string, Partial<StoryRun> & { id: string }>>, stories = [story("A"), story("B"), story("C")]) {
  const storyRuns = updates.reduce(mergeStoryRuns, {} as Record<string, StoryRun>);
  const values = {
    requirement: "r",
    stories,
    storyRuns,
    decisions: [],
    acceptanceCriteria: [],
    notes: {},
    filesChanged: [],
    gateHistory: [],
    lastGates: [],
    verdict: null,
    findings: [],
    usage: usage(10, 1),
    usageByNode: {},
  };
  return collectReport({
    threadId: "t1",
    row: null,
    values: values as never,
    waitingOn: null,
    diffstat: null,
    diffNote: null,
    price: null,
    readLog: () => null,
  });
}

describe("a report's stories run in parallel", () => {
  it("orders them as pm listed the stories (s<N> by position without ids), then runs pm's list does not name", () => {
    const r = reportOf([{ extra: run("extra") }, { s3: run("s3") }, { s1: run("s1") }, { s2: run("s2") }]);
    expect(r.storyRuns?.map((s) => s.id)).toEqual(["s1", "s2", "s3", "extra"]);
    expect(orderedStoryRuns(undefined, [])).toEqual([]);
  });

  it("keeps model-written ids, titles, files and reasons from breaking the Markdown table or the XML", () => {
    const evil = run("s1`|<b>", {
      title: "Title | with\nnewline <img src=x>",
      status: "failed",
      filesChanged: ["a`b.js", "c|d.js"],
      summary: "why\x1b[31m </failure> ]]>",
    });
    const r = reportOf([{ [evil.id]: evil }], [{ ...story("x"), id: evil.id } as never]);
    const md = renderMarkdown(r);
    const row = md.split("\n").find((l) => l.startsWith("| `s1"))!;
    // Seven cells: no pipe of the model's splits the row.
    expect(row.split(/(?<!\\)\|/).length - 2).toBe(7);
    expect(row).toContain("`s1'\\|&lt;b>`");
    expect(row).toContain("Title \\| with newline &lt;img src=x>");
    expect(row).toContain("`a'b.js`, `c\\|d.js`");
    const xml = parseXml(renderJunit(r));
    const [c] = findAll(findAll(xml, "testsuite").find((s) => s.attrs.name === "yolo stories")!, "testcase");
    expect(c.attrs.name).toBe("s1`|<b>: Title | with\nnewline <img src=x>");
    expect(findAll(c, "failure")[0].text).toBe("why </failure> ]]>");
  });
});
