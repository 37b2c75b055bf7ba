import { describe, it } from "vitest";
import { describeResult, parseEvents, runYolo, threadIdFrom } from "../helpers/cli.js";
import { analystDone, BAD_ADD, devWrites, director, GOOD_ADD, pmDone, teaSays } from "../helpers/director.js";
import { mockWith, project } from "../helpers/per-test.js";

const REQ = "Add an add(a, b) function to src/add.js";
const NO_KEY = "OPENAI_API_KEY is not set";

describe.concurrent("resume finds the thread before it asks for a model", { timeout: 240_000 }, () => {
  it("an unknown thread, no key and no endpoint: exit 2 naming the thread, not the key", async ({ expect, onTestFinished }) => {
    const root = project(onTestFinished);
    const mock = await mockWith(onTestFinished, director({ analyst: [analystDone], pm: [pmDone(false)], dev: devWrites(GOOD_ADD), tea: [teaSays("PASS")] }));
    expect((await runYolo(["run", "--json", REQ], { cwd: root, baseURL: mock.url })).exitCode).toBe(0);

    for (const args of [
      ["resume", "nosuchthread"],
      ["resume", "nosuchthread", "--from", "1"],
    ]) {
      const r = await runYolo(args, { cwd: root });
      expect(r.exitCode, describeResult(r)).toBe(2);
      expect(r.stderr).toBe("yolo: No thread nosuchthread in this project. List threads with `yolo threads`.\n");
    }
  });

  it("a thread that failed after --max-fix-attempts 1, resumed with no key by a command whose default is 3: exit 1, '1 fix attempt'", async ({
    expect,
    onTestFinished,
  }) => {
    const root = project(onTestFinished);
    const mock = await mockWith(
      onTestFinished,
      director({ analyst: [analystDone], pm: [pmDone(false)], dev: [...devWrites(BAD_ADD), ...devWrites(BAD_ADD)], tea: [teaSays("FAIL"), teaSays("FAIL")] }),
    );
    const first = await runYolo(["run", "--json", "--max-fix-attempts", "1", REQ], { cwd: root, baseURL: mock.url });
    expect(first.exitCode, describeResult(first)).toBe(1);
    const thread = threadIdFrom(first.stdout);
    const served = mock.requests.length;

    const r = await runYolo(["resume", "--json", thread], { cwd: root });
    expect(r.exitCode, describeResult(r)).toBe(1);
    expect(r.stderr).not.toContain(NO_KEY);
    const done = parseEvents(r.stdout).at(-1);
    expect(done).toMatchObject({ type: "run.completed", status: "failed", exitCode: 1 });
    expect(done?.type === "run.completed" && done.reason).toMatch(/still failing after 1 fix attempt$/);
    expect(mock.requests.length).toBe(served);

    // A follow-up message is not something a pipeline thread takes, and a fork runs a model: those still need one.
    const fork = await runYolo(["resume", thread, "--from", "1"], { cwd: root });
    expect(fork.exitCode, describeResult(fork)).toBe(2);
    expect(fork.stderr).toContain(NO_KEY);
  });

  it("a passed thread resumed with no key reports its outcome: exit 0", async ({ expect, onTestFinished }) => {
    const root = project(onTestFinished);
    const mock = await mockWith(onTestFinished, director({ analyst: [analystDone], pm: [pmDone(false)], dev: devWrites(GOOD_ADD), tea: [teaSays("PASS")] }));
    const first = await runYolo(["run", "--json", REQ], { cwd: root, baseURL: mock.url });
    const r = await runYolo(["resume", "--no-tui", threadIdFrom(first.stdout)], { cwd: root });
    expect(r.exitCode, describeResult(r)).toBe(0);
    expect(r.stdout).toContain("passed");
  });
});
