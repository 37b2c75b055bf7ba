import { describe, it } from "vitest";
import { describeResult, parseEvents, rolesOf, runYolo, threadIdFrom } from "../helpers/cli.js";
import { analystDone, call, devWrites, director, GOOD_ADD, pmDone, teaSays } from "../helpers/director.js";
import { mockWith, project } from "../helpers/per-test.js";

const REQ = "Add an add(a, b) function to src/add.js";
const completed = (stdout: string) => parseEvents(stdout).at(-1);

// Exit 6 (turns) is in run-exit-codes and ci-exit-codes, exit 7 (budget) in budget-cli-flags.
describe.concurrent("each limit stops the binary with its own exit code, and the thread resumes", { timeout: 240_000 }, () => {
  it("4: --max-steps 2 stops before dev; threads and report name the step limit; resume --max-steps 10 finishes", async ({ expect, onTestFinished }) => {
    const root = project(onTestFinished);
    const mock = await mockWith(onTestFinished, director({ analyst: [analystDone], pm: [pmDone(false)], dev: devWrites(GOOD_ADD), tea: [teaSays("PASS")] }));
    const r = await runYolo(["run", "--json", "--max-steps", "2", REQ], { cwd: root, baseURL: mock.url });

    expect(r.exitCode, describeResult(r)).toBe(4);
    const thread = threadIdFrom(r.stdout);
    expect(completed(r.stdout)).toMatchObject({ type: "run.completed", status: "limit", limit: "steps", exitCode: 4, resumeCommand: `yolo resume ${thread}` });
    expect(r.stderr).toMatch(/limit \(exit 4\): The run reached its step limit: 2 of 2 steps/);
    expect(rolesOf(mock)).toEqual(["analyst", "pm"]);

    const threads = await runYolo(["threads"], { cwd: root });
    expect(threads.stdout).toMatch(new RegExp(`^${thread}\\s+run\\s+limit \\(step limit\\)\\s`, "m"));
    const report = await runYolo(["report", thread], { cwd: root });
    expect(report.stdout).toContain("**limit** — step limit (exit 4)");

    // Limits are the command's, not stored in the thread: the same limit stops again, counted from the thread's steps.
    const again = await runYolo(["resume", "--json", "--max-steps", "2", thread], { cwd: root, baseURL: mock.url });
    expect(again.exitCode, describeResult(again)).toBe(4);
    expect(rolesOf(mock)).toEqual(["analyst", "pm"]);
    const resumed = await runYolo(["resume", "--json", "--max-steps", "10", thread], { cwd: root, baseURL: mock.url });
    expect(resumed.exitCode, describeResult(resumed)).toBe(0);
    expect(rolesOf(mock)).toEqual(["analyst", "pm", "dev", "dev", "tea"]);
  });

  it("8: --max-time 1s stops once the step running at the limit has finished; resume --max-time 1h finishes", async ({ expect, onTestFinished }) => {
    const root = project(onTestFinished);
    const mock = await mockWith(
      onTestFinished,
      director({ analyst: [{ ...analystDone, delayMs: 1_200 }], pm: [pmDone(false)], dev: devWrites(GOOD_ADD), tea: [teaSays("PASS")] }),
    );
    const r = await runYolo(["run", "--no-tui", "--max-time", "1s", REQ], { cwd: root, baseURL: mock.url });

    expect(r.exitCode, describeResult(r)).toBe(8);
    expect(r.stdout).toMatch(/✗ run stopped at the time limit \(exit 8\)/);
    expect(r.stdout).toMatch(/time limit: \d+s of 1s active/);
    expect(rolesOf(mock)).toEqual(["analyst"]);
    const thread = /yolo thread (\S+)/.exec(r.stdout)?.[1];
    expect(thread, r.stdout).toBeTruthy();

    const again = await runYolo(["resume", "--json", "--max-time", "1s", thread!], { cwd: root, baseURL: mock.url });
    expect(again.exitCode, describeResult(again)).toBe(8);
    expect(completed(again.stdout)).toMatchObject({ status: "limit", limit: "time", exitCode: 8 });
    expect(rolesOf(mock)).toEqual(["analyst"]);

    const resumed = await runYolo(["resume", "--json", "--max-time", "1h", thread!], { cwd: root, baseURL: mock.url });
    expect(resumed.exitCode, describeResult(resumed)).toBe(0);
    expect(rolesOf(mock)).toEqual(["analyst", "pm", "dev", "dev", "tea"]);
  });

  it("9: the same tool call five times in a row is a loop", async ({ expect, onTestFinished }) => {
    const root = project(onTestFinished);
    const same = Array.from({ length: 5 }, () => call("read_file", { path: "README.md" }));
    const mock = await mockWith(onTestFinished, director({ analyst: [analystDone], pm: [pmDone(false)], dev: same }));
    const r = await runYolo(["run", "--json", REQ], { cwd: root, baseURL: mock.url });

    expect(r.exitCode, describeResult(r)).toBe(9);
    const done = completed(r.stdout);
    expect(done).toMatchObject({ status: "limit", limit: "loop", exitCode: 9, resumeCommand: `yolo resume ${threadIdFrom(r.stdout)}` });
    expect(done?.type === "run.completed" && done.reason).toMatch(/5 times in a row \(a loop\)/);
  });

  it("2: --max-time that is not a duration is a usage error before anything runs", async ({ expect, onTestFinished }) => {
    const root = project(onTestFinished);
    const r = await runYolo(["run", "--max-time", "soon", REQ], { cwd: root, baseURL: "http://127.0.0.1:9/v1" });
    expect(r.exitCode, describeResult(r)).toBe(2);
    expect(r.stderr).toContain('--max-time: must be a duration such as 90s, 45m or 1h30m (a bare number is seconds), got "soon"');
  });
});
