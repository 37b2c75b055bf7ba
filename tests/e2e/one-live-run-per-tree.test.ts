import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { deferred, describeResult, rolesOf, runYolo, spawnYolo, waitFor } from "../helpers/cli.js";
import { analystDone, devWrites, director, GOOD_ADD, pmDone, teaSays } from "../helpers/director.js";
import { startMockOpenAI } from "../helpers/mock-openai.js";
import { makeProject } from "../helpers/project.js";
import { cleanupsAfterEach } from "../helpers/cleanups.js";

const REQ = "Add an add(a, b) function to src/add.js";
const cleanups = cleanupsAfterEach("lastFirst");

describe("one live run per working tree", { timeout: 240_000 }, () => {
  it("refuses a second run in the same tree (exit 2, naming the first's thread and pid), allows one in another worktree, and takes over a killed run's lock", async () => {
    const project = makeProject();
    const held = deferred();
    const mock = await startMockOpenAI(
      director({
        analyst: [{ ...analystDone, hold: held.promise }, analystDone, analystDone],
        pm: [pmDone(false), pmDone(false)],
        dev: [...devWrites(GOOD_ADD), ...devWrites(GOOD_ADD)],
        tea: [teaSays("PASS"), teaSays("PASS")],
      }),
    );
    cleanups.push(project.cleanup, () => mock.close(), held.release);
    const root = project.root;

    const first = spawnYolo(["run", "--json", REQ], { cwd: root, baseURL: mock.url });
    await waitFor(() => rolesOf(mock).includes("analyst"), "the first run's analyst request to reach the mock");
    const thread = (await runYolo(["threads", "--json"], { cwd: root })).stdout.match(/"id":\s*"([^"]+)"/)?.[1];
    expect(thread).toBeTruthy();

    // From a subfolder too: it is the same tree.
    execFileSync("mkdir", ["-p", join(root, "test", "deep")]);
    const second = await runYolo(["run", "--json", REQ], { cwd: join(root, "test", "deep"), baseURL: mock.url });
    expect(second.exitCode, describeResult(second)).toBe(2);
    expect(second.stderr).toContain(`Another run of yolo is live in this working tree: thread ${thread} (pid ${first.pid}`);
    expect(second.stdout).toBe("");
    expect(rolesOf(mock).filter((r) => r === "analyst")).toHaveLength(1);

    // A git worktree of the same repository is another tree: its run goes ahead while the first is still live.
    const other = `${root}-wt`;
    execFileSync("git", ["worktree", "add", "-q", other], { cwd: root });
    cleanups.push(() => execFileSync("rm", ["-rf", other]));
    const beside = await runYolo(["run", "--json", REQ], { cwd: other, baseURL: mock.url });
    expect(beside.exitCode, describeResult(beside)).toBe(0);

    // Killed with its lock in place: the lock names a process that is gone, so the next run is not blocked.
    first.kill("SIGKILL");
    await first;
    held.release();
    const after = await runYolo(["run", "--json", REQ], { cwd: root, baseURL: mock.url });
    expect(after.exitCode, describeResult(after)).toBe(0);
  });
});
