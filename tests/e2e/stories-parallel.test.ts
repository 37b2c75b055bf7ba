import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, it } from "vitest";
import { describeResult, parseEvents, runYolo, threadIdFrom } from "../helpers/cli.js";
import { analystDone, BAD_ADD, call, GOOD_ADD, handoff, teaSays } from "../helpers/director.js";
import { lastToolResults, type RecordedRequest, type ScriptedReply, startMockOpenAI } from "../helpers/mock-openai.js";
import { mockWith, project } from "../helpers/per-test.js";
import { makeProject } from "../helpers/project.js";
import { pmStories, storyDirector, until } from "../helpers/stories.js";

// The fixture's test script given as the gate: these cases are about stories (worktrees, merges, the gate on the merged
// tree), not npm's detection, and npm's own start costs about 0.7 s of CPU on each of the file's 14 gate runs. Stories
// with the detected `npm test`: tests/e2e/stories-kill-resume.test.ts.
const GATE = ["--test-cmd", "node --test test/"];

const MUL = "export function mul(a, b) {\n  return a * b;\n}\n";
const CALC = 'import { add } from "./add.js";\nimport { mul } from "./mul.js";\nexport const calc = (a, b) => add(mul(a, b), 1);\n';

/** A turn that first waits until `other` has sent a request: it can only be answered if both runs are alive at once. */
function afterSeen(log: string[], other: string, reply: ScriptedReply): (req: RecordedRequest) => Promise<ScriptedReply> {
  return async () => {
    try {
      await until(() => log.includes(other), `a request of ${other}`);
      return reply;
    } catch (error) {
      return { status: 400, content: String(error) };
    }
  };
}

// The plan most cases use: two independent stories.
const addAndMultiply = () =>
  pmStories([
    { id: "add", title: "Add numbers", depends_on: [] },
    { id: "mul", title: "Multiply numbers", depends_on: [] },
  ]);
// A story's dev that writes one file and hands off.
const writes = (path: string, content: string, summary: string) => [call("write_file", { path, content }), handoff({ summary, files_changed: [] })];

describe.concurrent("stories in parallel: one dev per story, in its own worktree, merged and gated", { timeout: 240_000 }, () => {
  it("runs independent stories at the same time; the dependent one waits and sees their files; tea gates the merged tree", async ({
    expect,
    onTestFinished,
  }) => {
    const root = project(onTestFinished);
    const log: string[] = [];
    const director = storyDirector({
      analyst: [analystDone],
      pm: [
        pmStories([
          { id: "add", title: "Add numbers", depends_on: [] },
          { id: "mul", title: "Multiply numbers", depends_on: [] },
          { id: "calc", title: "Calculator", depends_on: ["add", "mul"] },
        ]),
      ],
      "dev:add": [
        afterSeen(log, "dev:mul", call("write_file", { path: "src/add.js", content: GOOD_ADD })),
        handoff({ summary: "add", files_changed: ["src/add.js"] }),
      ],
      "dev:mul": [
        afterSeen(log, "dev:add", call("write_file", { path: "src/mul.js", content: MUL })),
        handoff({ summary: "mul", files_changed: ["src/mul.js"] }),
      ],
      "dev:calc": [
        call("read_file", { path: "src/mul.js" }),
        (req) =>
          String(lastToolResults(req)[0]?.content).includes("a * b")
            ? call("write_file", { path: "src/calc.js", content: CALC })
            : { status: 400, content: "calc did not see mul.js" },
        handoff({ summary: "calc", files_changed: ["src/calc.js"] }),
      ],
      tea: [teaSays("PASS")],
    });
    const mock = await mockWith(onTestFinished, (req, i) => {
      const reply = director(req, i);
      log.splice(0, log.length, ...director.log);
      return reply;
    });
    const r = await runYolo(["run", ...GATE, "--ci", "--json", "--parallel", "3", "Add, multiply and a calculator"], { cwd: root, baseURL: mock.url });
    expect(r.exitCode, describeResult(r)).toBe(0);
    const runs = director.log;
    // Overlap, from the request log: each story's first request came before the other's last.
    expect(runs.indexOf("dev:mul")).toBeLessThan(runs.lastIndexOf("dev:add"));
    expect(runs.indexOf("dev:add")).toBeLessThan(runs.lastIndexOf("dev:mul"));
    // The dependent story started after both were done, and tea came last.
    expect(runs.indexOf("dev:calc")).toBeGreaterThan(Math.max(runs.lastIndexOf("dev:add"), runs.lastIndexOf("dev:mul")));
    expect(runs.at(-1)).toBe("tea");
    expect(runs.filter((x) => x === "dev")).toEqual([]);

    const events = parseEvents(r.stdout);
    const thread = threadIdFrom(r.stdout);
    expect(events.filter((e) => e.type === "story.started").map((e) => [e.story, (e as { branch: string }).branch])).toEqual(
      expect.arrayContaining([
        ["add", `yolo/stories/${thread}/add`],
        ["mul", `yolo/stories/${thread}/mul`],
        ["calc", `yolo/stories/${thread}/calc`],
      ]),
    );
    const completed = events.filter((e) => e.type === "story.completed") as Array<{ story: string; status: string; filesChanged: string[] }>;
    expect(Object.fromEntries(completed.map((e) => [e.story, [e.status, e.filesChanged]]))).toEqual({
      add: ["done", ["src/add.js"]],
      mul: ["done", ["src/mul.js"]],
      calc: ["done", ["src/calc.js"]],
    });
    expect(events.filter((e) => e.type === "story.merged").map((e) => [e.story, (e as { conflicts: string[] }).conflicts])).toEqual([
      ["add", []],
      ["mul", []],
      ["calc", []],
    ]);
    // Every event of a story's run carries its id.
    const storyTools = events.filter((e) => e.type === "tool.called" && e.node === "dev");
    expect(storyTools.length).toBe(7);
    for (const e of storyTools) expect(["add", "mul", "calc"]).toContain(e.story);

    expect(readFileSync(join(root, "src/calc.js"), "utf8")).toBe(CALC);
    expect(readFileSync(join(root, "src/add.js"), "utf8")).toBe(GOOD_ADD);
    // Each story's dev saw only its own story; worktrees are gone when the thread ends.
    const transcript = readFileSync(join(root, ".yolo/threads", thread, "transcripts/dev.add.jsonl"), "utf8");
    expect(transcript).toContain("Add numbers");
    expect(transcript).not.toContain("Multiply numbers");
    expect(execFileSync("git", ["worktree", "list"], { cwd: root, encoding: "utf8" }).trim().split("\n")).toHaveLength(1);
    const wts = join(root, ".yolo/threads", thread, "worktrees");
    expect(existsSync(wts) ? readdirSync(wts) : []).toEqual([]);
  });

  it("a merge conflict is not a failure: dev resolves it in the thread's tree, yolo checks the markers are gone, then tea gates the merged tree", async ({
    expect,
    onTestFinished,
  }) => {
    const root = project(onTestFinished);
    const director = storyDirector({
      analyst: [analystDone],
      pm: [
        pmStories([
          { id: "add", title: "Add numbers", depends_on: [] },
          { id: "docs", title: "Document it", depends_on: [] },
        ]),
      ],
      "dev:add": [
        call("write_file", { path: "README.md", content: "# demo: adds\n" }),
        call("write_file", { path: "src/add.js", content: GOOD_ADD }),
        handoff({ summary: "add", files_changed: [] }),
      ],
      "dev:docs": [call("write_file", { path: "README.md", content: "# demo: documented\n" }), handoff({ summary: "docs", files_changed: ["README.md"] })],
      "dev:merge": [
        (req) => {
          const brief = req.messages.map((m) => String(m.content)).join("\n");
          const sawBoth = brief.includes("# demo: adds") && brief.includes("# demo: documented") && brief.includes("README.md");
          return sawBoth
            ? call("write_file", { path: "README.md", content: "# demo: adds, documented\n" })
            : { status: 400, content: "the conflict brief lacks a side" };
        },
        handoff({ summary: "merged both titles", files_changed: ["README.md"] }),
      ],
      tea: [teaSays("PASS")],
    });
    const mock = await mockWith(onTestFinished, director);
    const r = await runYolo(["run", ...GATE, "--ci", "--json", "Add numbers and document them"], { cwd: root, baseURL: mock.url });
    expect(r.exitCode, describeResult(r)).toBe(0);
    expect(readFileSync(join(root, "README.md"), "utf8")).toBe("# demo: adds, documented\n");
    expect(director.log.slice(-2)).toEqual(["dev:merge", "tea"]);
    const events = parseEvents(r.stdout);
    expect(events.filter((e) => e.type === "story.merged").map((e) => [e.story, (e as { conflicts: string[] }).conflicts])).toEqual([
      ["add", []],
      ["docs", ["README.md"]],
    ]);
    const gates = events.filter((e) => e.type === "gate.result" && e.node === "tea");
    expect(gates.length).toBeGreaterThan(0);
    expect(gates.every((g) => (g as { gate: { passed: boolean } }).gate.passed)).toBe(true);
  });

  it("conflict markers left behind by the resolving dev never reach the gate: after two tries a human is asked (exit 3 under --ci)", async ({
    expect,
    onTestFinished,
  }) => {
    const root = project(onTestFinished);
    const leave = [
      call("write_file", { path: "README.md", content: "<<<<<<< merged stories\n# a\n=======\n# b\n>>>>>>> story docs\n" }),
      handoff({ summary: "done (not really)", files_changed: ["README.md"] }),
    ];
    const director = storyDirector({
      analyst: [analystDone],
      pm: [
        pmStories([
          { id: "add", title: "Add numbers", depends_on: [] },
          { id: "docs", title: "Document it", depends_on: [] },
        ]),
      ],
      "dev:add": [call("write_file", { path: "README.md", content: "# demo: adds\n" }), handoff({ summary: "add", files_changed: [] })],
      "dev:docs": [call("write_file", { path: "README.md", content: "# demo: documented\n" }), handoff({ summary: "docs", files_changed: [] })],
      "dev:merge": [...leave, ...leave],
      tea: [],
    });
    const mock = await mockWith(onTestFinished, director);
    const r = await runYolo(["run", ...GATE, "--ci", "--json", "Add numbers and document them"], { cwd: root, baseURL: mock.url });
    expect(r.exitCode, describeResult(r)).toBe(3);
    expect(director.log).not.toContain("tea");
    expect(director.log.filter((x) => x === "dev:merge")).toHaveLength(4);
    expect(r.stdout + r.stderr).toContain("conflict markers are still in README.md");
  });

  // One run serves both: --branch and the user's hooks are independent, and each story run is a whole pipeline's CPU.
  describe("a two-story run with --branch and the user's NodeStart / NodeEnd hooks", () => {
    const cleanup: Array<() => unknown> = [];
    let shared: { root: string; logDir: string; r: Awaited<ReturnType<typeof runYolo>> };
    beforeAll(async () => {
      const proj = makeProject();
      cleanup.push(proj.cleanup);
      const home = realpathSync(mkdtempSync(join(tmpdir(), "yolo-test-")));
      cleanup.push(() => rmSync(home, { recursive: true, force: true }));
      // The two stories' hooks run at the same time: each writes its own file, as appending to one would interleave.
      const logDir = join(home, "hooks");
      mkdirSync(logDir);
      const logHook = { type: "command", command: `cat > "$(mktemp ${logDir}/XXXXXX)"` };
      writeFileSync(
        join(home, "config.json"),
        JSON.stringify({ hooks: { NodeStart: [{ matcher: "dev", hooks: [logHook] }], NodeEnd: [{ matcher: "dev", hooks: [logHook] }] } }),
      );
      const director = storyDirector({
        analyst: [analystDone],
        pm: [addAndMultiply()],
        "dev:add": writes("src/add.js", GOOD_ADD, "wrote add"),
        "dev:mul": writes("src/mul.js", MUL, "wrote mul"),
        tea: [teaSays("PASS")],
      });
      const mock = await startMockOpenAI(director);
      cleanup.push(() => mock.close());
      const r = await runYolo(["run", ...GATE, "--ci", "--json", "--branch", "Add and multiply"], {
        cwd: proj.root,
        baseURL: mock.url,
        env: { YOLO_USER_CONFIG: join(home, "config.json"), XDG_STATE_HOME: join(home, "state") },
      });
      shared = { root: proj.root, logDir, r };
    }, 240_000);
    afterAll(async () => {
      for (const undo of cleanup) await undo();
    });

    it("--branch: one commit per story on the thread's branch, in story order, a linear history", ({ expect }) => {
      const { root, r } = shared;
      expect(r.exitCode, describeResult(r)).toBe(0);
      const thread = threadIdFrom(r.stdout);
      const git = (...args: string[]) => execFileSync("git", args, { cwd: root, encoding: "utf8" });
      expect(git("branch", "--show-current").trim()).toBe(`yolo/${thread}`);
      expect(git("log", "--format=%s", "--first-parent").trim().split("\n")).toEqual([
        `yolo(${thread}): Multiply numbers (attempt 1)`,
        `yolo(${thread}): Add numbers (attempt 1)`,
        "init",
      ]);
      expect(git("log", "--merges", "--format=%s").trim()).toBe("");
      expect(git("show", "--name-only", "--format=", "HEAD~1").trim()).toBe("src/add.js");
      expect(git("show", "--name-only", "--format=", "HEAD").trim()).toBe("src/mul.js");
      expect(git("log", "-1", "--format=%B", "HEAD~1")).toContain("Yolo-Node: dev.add");
      expect(git("status", "--porcelain")).toBe("");
      expect(git("branch", "--list", "yolo/stories/*")).toBe("");
    });

    it("the user's NodeStart and NodeEnd hooks run for each story's dev, naming its transcript", ({ expect }) => {
      const { root, logDir, r } = shared;
      expect(r.exitCode, describeResult(r)).toBe(0);
      const thread = threadIdFrom(r.stdout);
      const payloads = readdirSync(logDir).map((f) => JSON.parse(readFileSync(join(logDir, f), "utf8")));
      const seen = payloads.map((p) => [p.hook_event_name, p.cwd, p.transcript_path]).sort();
      const transcript = (id: string) => join(root, ".yolo/threads", thread, "transcripts", `dev.${id}.jsonl`);
      // Hooks run from the thread's project root, as every hook does.
      expect(seen).toEqual([
        ["NodeEnd", root, transcript("add")],
        ["NodeEnd", root, transcript("mul")],
        ["NodeStart", root, transcript("add")],
        ["NodeStart", root, transcript("mul")],
      ]);
    });
  });

  it("--parallel 1 keeps one dev for all stories, as before", async ({ expect, onTestFinished }) => {
    const root = project(onTestFinished);
    const director = storyDirector({
      analyst: [analystDone],
      pm: [addAndMultiply()],
      dev: [
        call("write_file", { path: "src/add.js", content: GOOD_ADD }),
        call("write_file", { path: "src/mul.js", content: MUL }),
        handoff({ summary: "both", files_changed: [] }),
      ],
      tea: [teaSays("PASS")],
    });
    const mock = await mockWith(onTestFinished, director);
    const r = await runYolo(["run", ...GATE, "--ci", "--json", "--parallel", "1", "Add and multiply"], { cwd: root, baseURL: mock.url });
    expect(r.exitCode, describeResult(r)).toBe(0);
    expect(director.log).toEqual(["analyst", "pm", "dev", "dev", "dev", "tea"]);
    expect(parseEvents(r.stdout).filter((e) => e.type.startsWith("story."))).toEqual([]);
    expect(existsSync(join(root, ".yolo/threads", threadIdFrom(r.stdout), "worktrees"))).toBe(false);
  });

  it("a story's question goes to a human; the answer reaches that story's dev, which continues in its worktree", async ({ expect, onTestFinished }) => {
    const root = project(onTestFinished);
    const director = storyDirector({
      analyst: [analystDone],
      pm: [addAndMultiply()],
      "dev:add": writes("src/add.js", GOOD_ADD, "add"),
      "dev:mul": [
        call("write_file", { path: "src/mul.js", content: "// draft\n" }),
        handoff({ escalate_to_human: true, question: "Integers only?" }),
        (req) => {
          const text = req.messages.map((m) => String(m.content)).join("\n");
          return text.includes("Yes, integers") ? call("read_file", { path: "src/mul.js" }) : { status: 400, content: "the answer did not reach the story" };
        },
        (req) =>
          String(lastToolResults(req)[0]?.content).includes("// draft")
            ? call("write_file", { path: "src/mul.js", content: MUL })
            : { status: 400, content: "worktree lost" },
        handoff({ summary: "mul", files_changed: [] }),
      ],
      tea: [teaSays("PASS")],
    });
    const mock = await mockWith(onTestFinished, director);
    const first = await runYolo(["run", ...GATE, "--ci", "--json", "Add and multiply"], { cwd: root, baseURL: mock.url });
    expect(first.exitCode, describeResult(first)).toBe(3);
    expect(first.stdout).toContain("Story mul (Multiply numbers): Integers only?");
    const thread = threadIdFrom(first.stdout);
    // The finished story is merged already; the question waits.
    expect(readFileSync(join(root, "src/add.js"), "utf8")).toBe(GOOD_ADD);
    const seen = director.log.length;
    const resumed = await runYolo(["resume", "--json", thread, "--answer", "Yes, integers"], { cwd: root, baseURL: mock.url });
    expect(resumed.exitCode, describeResult(resumed)).toBe(0);
    expect(director.log.slice(seen)).toEqual(["dev:mul", "dev:mul", "dev:mul", "tea"]);
    expect(readFileSync(join(root, "src/mul.js"), "utf8")).toBe(MUL);
  });

  it("a blocked gate on the merged tree goes to one dev on that tree, not to every story", async ({ expect, onTestFinished }) => {
    const root = project(onTestFinished);
    const director = storyDirector({
      analyst: [analystDone],
      pm: [addAndMultiply()],
      "dev:add": writes("src/add.js", BAD_ADD, "add"),
      "dev:mul": writes("src/mul.js", MUL, "mul"),
      dev: [
        (req) => {
          const text = req.messages.map((m) => String(m.content)).join("\n");
          return text.includes("Fix attempt 1") && text.includes("Add numbers") && text.includes("Multiply numbers")
            ? call("write_file", { path: "src/add.js", content: GOOD_ADD })
            : { status: 400, content: "not a fix brief with both stories" };
        },
        handoff({ summary: "fixed add", files_changed: ["src/add.js"] }),
      ],
      tea: [teaSays("FAIL", ["add subtracts"]), teaSays("PASS")],
    });
    const mock = await mockWith(onTestFinished, director);
    const r = await runYolo(["run", ...GATE, "--ci", "--json", "Add and multiply"], { cwd: root, baseURL: mock.url });
    expect(r.exitCode, describeResult(r)).toBe(0);
    expect(director.log.slice(-4)).toEqual(["tea", "dev", "dev", "tea"]);
    expect(director.log.filter((x) => x.startsWith("dev:"))).toHaveLength(4);
    expect(readFileSync(join(root, "src/add.js"), "utf8")).toBe(GOOD_ADD);
    expect(readFileSync(join(root, "src/mul.js"), "utf8")).toBe(MUL);
  });
});
