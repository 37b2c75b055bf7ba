import { describe, it } from "vitest";
import { describeResult, parseEvents, runYolo, threadIdFrom } from "../helpers/cli.js";
import { call, GOOD_ADD, handoff, teaSays } from "../helpers/director.js";
import type { ScriptedReply } from "../helpers/mock-openai.js";
import { mockWith, project } from "../helpers/per-test.js";
import { pmStories, storyDirector, until } from "../helpers/stories.js";

// The fixture's test script given as the gate: these cases are about the thread's budgets across stories, not npm's
// detection, and npm's own start costs about 0.5 s of CPU a gate run. A resume keeps the thread's command. Stories with
// the detected `npm test`: tests/e2e/stories-kill-resume.test.ts.
const GATE = ["--test-cmd", "node --test test/"];

// A green baseline: these stories do not touch add.js, and a test failing at the baseline would be their target.
const GREEN = { "src/add.js": GOOD_ADD };

const usage = { prompt_tokens: 1000, completion_tokens: 0 };
const costly = (reply: ScriptedReply): ScriptedReply => ({ ...reply, usage });

describe("limits count across all stories", { timeout: 240_000 }, () => {
  it("the token budget is the thread's: stories running side by side add up, the run stops (exit 7) and resumes with a higher budget", async ({
    expect,
    onTestFinished,
  }) => {
    const root = project(onTestFinished, GREEN);
    const log: string[] = [];
    // Each story's first call waits until the other story's first call arrived: both have spent 1000 tokens before either checks again.
    const first = (other: string, path: string) => async () => {
      await until(() => log.includes(other), other).catch(() => {});
      return costly(call("write_file", { path, content: `// ${path}\n` }));
    };
    const director = storyDirector({
      analyst: [costly(handoff({ requirements: "Two files", acceptance_criteria: ["both exist"] }))],
      pm: [
        costly(
          pmStories([
            { id: "a", title: "File A", depends_on: [] },
            { id: "b", title: "File B", depends_on: [] },
          ]),
        ),
      ],
      "dev:a": [
        first("dev:b", "a.js"),
        costly(handoff({ summary: "a", files_changed: [] })),
        costly(call("write_file", { path: "a.js", content: "// a\n" })),
        costly(handoff({ summary: "a", files_changed: [] })),
      ],
      "dev:b": [
        first("dev:a", "b.js"),
        costly(handoff({ summary: "b", files_changed: [] })),
        costly(call("write_file", { path: "b.js", content: "// b\n" })),
        costly(handoff({ summary: "b", files_changed: [] })),
      ],
      tea: [teaSays("PASS")],
    });
    const mock = await mockWith(onTestFinished, (req, i) => {
      const reply = director(req, i);
      log.splice(0, log.length, ...director.log);
      return reply;
    });
    // analyst + pm: 2000; each story's first call: 1000 more. Alone, a story has spent 3000 < 3500 and would go on;
    // counted together (4000) the budget is reached before the second call of whichever story checks last.
    const r = await runYolo(["run", ...GATE, "--ci", "--json", "--max-tokens", "3500", "Two files"], { cwd: root, baseURL: mock.url });
    expect(r.exitCode, describeResult(r)).toBe(7);
    expect(r.stdout).toContain("token budget");
    expect(director.log).not.toContain("tea");
    const done = parseEvents(r.stdout)
      .filter((e) => e.type === "story.completed")
      .map((e) => e.story);
    // At most one story got its second call in before the other's spending was counted: never both.
    expect(done.length).toBeLessThan(2);
    const thread = threadIdFrom(r.stdout);
    const seen = director.log.length;

    const resumed = await runYolo(["resume", "--json", "--max-tokens", "100000", thread], { cwd: root, baseURL: mock.url });
    expect(resumed.exitCode, describeResult(resumed)).toBe(0);
    const after = director.log.slice(seen);
    for (const story of done) expect(after).not.toContain(`dev:${story}`);
    expect(after.at(-1)).toBe("tea");
    expect(
      parseEvents(resumed.stdout)
        .filter((e) => e.type === "story.merged")
        .map((e) => e.story),
    ).toEqual(["a", "b"]);
  });

  it("dev's turn limit holds for the stories' devs together: it stops the fan-out (exit 6), and a resume with more turns finishes", async ({
    expect,
    onTestFinished,
  }) => {
    const root = project(onTestFinished, GREEN);
    const log: string[] = [];
    const first = (other: string, path: string) => async () => {
      await until(() => log.includes(other), other).catch(() => {});
      return call("write_file", { path, content: `// ${path}\n` });
    };
    const director = storyDirector({
      analyst: [handoff({ requirements: "Two files", acceptance_criteria: ["both exist"] })],
      pm: [
        pmStories([
          { id: "a", title: "File A", depends_on: [] },
          { id: "b", title: "File B", depends_on: [] },
        ]),
      ],
      "dev:a": [first("dev:b", "a.js"), handoff({ summary: "a", files_changed: [] }), handoff({ summary: "a", files_changed: [] })],
      "dev:b": [first("dev:a", "b.js"), handoff({ summary: "b", files_changed: [] }), handoff({ summary: "b", files_changed: [] })],
      tea: [teaSays("PASS")],
    });
    const mock = await mockWith(onTestFinished, (req, i) => {
      const reply = director(req, i);
      log.splice(0, log.length, ...director.log);
      return reply;
    });
    // Each story needs 2 turns: alone within 3, together 4.
    const r = await runYolo(["run", ...GATE, "--ci", "--json", "--max-turns", "3", "Two files"], { cwd: root, baseURL: mock.url });
    expect(r.exitCode, describeResult(r)).toBe(6);
    expect(r.stdout).toContain("used dev's 3 turns between them");
    const resumed = await runYolo(["resume", "--json", "--max-turns", "10", threadIdFrom(r.stdout)], { cwd: root, baseURL: mock.url });
    expect(resumed.exitCode, describeResult(resumed)).toBe(0);
    expect(director.log.at(-1)).toBe("tea");
  });
});
