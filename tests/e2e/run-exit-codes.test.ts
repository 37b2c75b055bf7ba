import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "vitest";
import { describeResult, deferred, parseEvents, rolesOf, runYolo, spawnYolo, threadIdFrom, waitFor } from "../helpers/cli.js";
import { analystDone, BAD_ADD, call, devWrites, director, GOOD_ADD, pmDone, teaSays } from "../helpers/director.js";
import { mockWith, project } from "../helpers/per-test.js";

const REQ = "Add an add(a, b) function to src/add.js";

describe.concurrent("yolo run exits with a code that tells the outcome", { timeout: 240_000 }, () => {
  it("0: the gate is green, src/add.js is really written, and .yolo/ stays out of git status", async ({ expect, onTestFinished }) => {
    const root = project(onTestFinished);
    const mock = await mockWith(onTestFinished, director({ analyst: [analystDone], pm: [pmDone(false)], dev: devWrites(GOOD_ADD), tea: [teaSays("PASS")] }));
    const r = await runYolo(["run", "--json", REQ], { cwd: root, baseURL: mock.url });

    expect(r.exitCode, describeResult(r)).toBe(0);
    expect(readFileSync(join(root, "src/add.js"), "utf8")).toBe(GOOD_ADD);
    expect(existsSync(join(root, ".yolo/yolo.db"))).toBe(true);
    const status = execFileSync("git", ["status", "--porcelain", "--untracked-files=all"], { cwd: root, encoding: "utf8" });
    expect(status).toContain("src/add.js");
    expect(status).not.toContain(".yolo");
  });

  it("1: the gate is still red after --max-fix-attempts 1", async ({ expect, onTestFinished }) => {
    const root = project(onTestFinished);
    const mock = await mockWith(
      onTestFinished,
      director({
        analyst: [analystDone],
        pm: [pmDone(false)],
        dev: [...devWrites(BAD_ADD), ...devWrites(BAD_ADD)],
        tea: [teaSays("FAIL", ["subtracts"]), teaSays("FAIL", ["still subtracts"])],
      }),
    );
    const r = await runYolo(["run", "--json", "--max-fix-attempts", "1", REQ], { cwd: root, baseURL: mock.url });

    expect(r.exitCode, describeResult(r)).toBe(1);
    const done = parseEvents(r.stdout).at(-1);
    expect(done).toMatchObject({ type: "run.completed", status: "failed", exitCode: 1 });
    expect(done?.type === "run.completed" && done.reason).toMatch(/still failing after 1 fix attempts?/);
    // One first try plus exactly one fix attempt.
    expect(rolesOf(mock).filter((r) => r === "dev")).toHaveLength(4);
  });

  it("2: neither OPENAI_API_KEY nor OPENAI_BASE_URL is set; the message names both and nothing is created", async ({ expect, onTestFinished }) => {
    const root = project(onTestFinished);
    const r = await runYolo(["run", REQ], { cwd: root });

    expect(r.exitCode, describeResult(r)).toBe(2);
    expect(r.stderr).toContain("OPENAI_API_KEY");
    expect(r.stderr).toContain("OPENAI_BASE_URL");
    // The engine's fact, in the CLI's words: the flag that points yolo at a local server.
    expect(r.stderr).toContain("or --base-url) at a local OpenAI-compatible server");
    expect(r.stdout).toBe("");
    expect(existsSync(join(root, ".yolo"))).toBe(false);
  });

  it("2: an agent file in the project has an unknown frontmatter key; stderr names the file and the key", async ({ expect, onTestFinished }) => {
    const root = project(onTestFinished, {
      "agents/dev.md": "---\nname: Dev\ndescription: writes code\ntools: [write_file]\ncolour: blue\n---\nYou are the dev agent.\n",
    });
    const mock = await mockWith(onTestFinished, director({}));
    const r = await runYolo(["run", REQ], { cwd: root, baseURL: mock.url });

    expect(r.exitCode, describeResult(r)).toBe(2);
    expect(r.stderr).toMatch(/agents\/dev\.md: colour: unknown key/);
    expect(mock.requests).toHaveLength(0);
    expect(existsSync(join(root, ".yolo"))).toBe(false);
  });

  it("2: yolo.config.ts has an unknown key; stderr names the file and the key", async ({ expect, onTestFinished }) => {
    const root = project(onTestFinished, { "yolo.config.ts": "export default { colour: 1 };\n" });
    const mock = await mockWith(onTestFinished, director({}));
    const r = await runYolo(["run", REQ], { cwd: root, baseURL: mock.url });

    expect(r.exitCode, describeResult(r)).toBe(2);
    expect(r.stderr).toContain("yolo.config.ts");
    expect(r.stderr).toMatch(/colour: unknown key/);
    expect(mock.requests).toHaveLength(0);
  });

  it("3: the analyst escalates; stdout shows the question and the exact resume command, and a closed stdin does not hang", async ({
    expect,
    onTestFinished,
  }) => {
    const root = project(onTestFinished);
    const question = "Integers only, or floats too?";
    const mock = await mockWith(onTestFinished, director({ analyst: [call("handoff", { escalate_to_human: true, question })] }));
    const r = await runYolo(["run", "--no-tui", REQ], { cwd: root, baseURL: mock.url });

    expect(r.exitCode, describeResult(r)).toBe(3);
    expect(r.timedOut).toBe(false);
    const thread = /yolo thread (\S+)/.exec(r.stdout)?.[1];
    expect(thread, r.stdout).toBeTruthy();
    expect(r.stdout).toContain(question);
    expect(r.stdout).toContain(`yolo resume ${thread} --answer "<your answer>"`);
    expect(rolesOf(mock)).toEqual(["analyst"]);
  });

  it("6: --max-turns 2 stops a dev that keeps listing files, and says how to resume", async ({ expect, onTestFinished }) => {
    const root = project(onTestFinished);
    const listing = Array.from({ length: 5 }, () => call("list_files", { path: "." }));
    const mock = await mockWith(onTestFinished, director({ analyst: [analystDone], pm: [pmDone(false)], dev: listing }));
    const r = await runYolo(["run", "--json", "--max-turns", "2", REQ], { cwd: root, baseURL: mock.url });

    expect(r.exitCode, describeResult(r)).toBe(6);
    expect(rolesOf(mock)).toEqual(["analyst", "pm", "dev", "dev"]);
    const done = parseEvents(r.stdout).at(-1);
    expect(done).toMatchObject({ type: "run.completed", status: "limit", limit: "turns", exitCode: 6, resumeCommand: `yolo resume ${threadIdFrom(r.stdout)}` });
    expect(done?.type === "run.completed" && done.reason).toMatch(/dev used its 2 turns/);
    // The way on names this thread, not a placeholder.
    expect(done?.type === "run.completed" && done.reason).toContain(`yolo resume ${threadIdFrom(r.stdout)} --max-turns N`);
  });

  it("6: an agent that only ever answers in prose stops, and what it said is in the reason, not lost", async ({ expect, onTestFinished }) => {
    const root = project(onTestFinished);
    const prose = Array.from({ length: 6 }, (_, i) => ({ content: `I would add add(a, b) to src/add.js (reply ${i + 1}).` }));
    const mock = await mockWith(onTestFinished, director({ analyst: [analystDone], pm: [pmDone(false)], dev: prose }));
    const r = await runYolo(["run", "--json", REQ], { cwd: root, baseURL: mock.url });
    expect(r.exitCode, describeResult(r)).toBe(6);
    const done = parseEvents(r.stdout).at(-1);
    expect(done?.type === "run.completed" && done.reason).toMatch(
      /dev answered \d times without calling a tool or handing off.*Its last reply: "I would add add\(a, b\) to src\/add\.js \(reply \d\)\."/s,
    );
  });

  it("5: the provider answers 401; the message names OPENAI_API_KEY, exactly one request is made, the key is not printed", async ({
    expect,
    onTestFinished,
  }) => {
    const root = project(onTestFinished);
    const mock = await mockWith(onTestFinished, () => ({ status: 401 }));
    const key = "sk-test-e2e-secret-0123456789";
    const r = await runYolo(["run", "--json", REQ], { cwd: root, baseURL: mock.url, env: { OPENAI_API_KEY: key } });

    expect(r.exitCode, describeResult(r)).toBe(5);
    expect(mock.requests).toHaveLength(1);
    const events = parseEvents(r.stdout);
    const done = events.at(-1);
    expect(done).toMatchObject({ type: "run.completed", status: "provider_error", exitCode: 5 });
    expect(done?.type === "run.completed" && done.reason).toContain("OPENAI_API_KEY");
    expect(r.stdout + r.stderr).not.toContain(key);
    const logs = join(root, ".yolo/logs");
    for (const f of existsSync(logs) ? readdirSync(logs) : []) {
      expect(readFileSync(join(logs, f), "utf8")).not.toContain(key);
    }
  });

  it("5: in plain mode the printed 401 message still names OPENAI_API_KEY", async ({ expect, onTestFinished }) => {
    const root = project(onTestFinished);
    const mock = await mockWith(onTestFinished, () => ({ status: 401 }));
    const r = await runYolo(["run", "--no-tui", REQ], { cwd: root, baseURL: mock.url, env: { OPENAI_API_KEY: "sk-bad" } });

    expect(r.exitCode, describeResult(r)).toBe(5);
    expect(r.stdout + r.stderr).toContain("OPENAI_API_KEY");
  });

  it("130: SIGINT while dev works stops the run once dev's step is done, and the thread resumes to a pass", async ({ expect, onTestFinished }) => {
    const root = project(onTestFinished);
    const held = deferred();
    onTestFinished(held.release);
    const mock = await mockWith(
      onTestFinished,
      director({
        analyst: [analystDone],
        pm: [pmDone(false)],
        dev: [{ ...call("write_file", { path: "src/add.js", content: BAD_ADD }), hold: held.promise }, ...devWrites(GOOD_ADD)],
        tea: [teaSays("PASS")],
      }),
    );
    const child = spawnYolo(["run", "--json", REQ], { cwd: root, baseURL: mock.url });
    await waitFor(() => rolesOf(mock).includes("dev"), "dev's request to reach the mock");
    let stderr = "";
    child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.kill("SIGINT");
    // One Ctrl+C lets the running step finish (and checkpoint) before stopping.
    await waitFor(() => stderr.includes("stopping after the current step"), "the stop notice");
    held.release();
    const first = await child;

    expect(first.exitCode, `${first.stdout}\n${first.stderr}`).toBe(130);
    expect(
      parseEvents(String(first.stdout))
        .filter((e) => e.type === "node.completed")
        .map((e) => (e.type === "node.completed" ? e.node : "")),
    ).toEqual(["analyst", "pm", "dev"]);
    const thread = threadIdFrom(String(first.stdout));
    expect(parseEvents(String(first.stdout)).at(-1)).toMatchObject({
      type: "run.completed",
      status: "interrupted",
      exitCode: 130,
      resumeCommand: `yolo resume ${thread}`,
    });

    const second = await runYolo(["resume", "--json", thread], { cwd: root, baseURL: mock.url });
    expect(second.exitCode, describeResult(second)).toBe(0);
    expect(readFileSync(join(root, "src/add.js"), "utf8")).toBe(GOOD_ADD);
    expect(rolesOf(mock)).toEqual(["analyst", "pm", "dev", "dev", "dev", "tea"]);
  });
});
