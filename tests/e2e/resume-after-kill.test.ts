import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { describeResult, deferred, parseEvents, rolesOf, runYolo, spawnYolo, threadIdFrom, waitFor } from "../helpers/cli.js";
import { analystDone, BAD_ADD, call, devWrites, director, GOOD_ADD, pmDone, teaSays } from "../helpers/director.js";
import { startMockOpenAI } from "../helpers/mock-openai.js";
import { makeProject } from "../helpers/project.js";
import { BACKENDS, useTestDatabase } from "../helpers/postgres.js";
import { cleanupsAfterEach } from "../helpers/cleanups.js";

const cleanups = cleanupsAfterEach("lastFirst");

const REQ = "Add an add(a, b) function to src/add.js";

// On the project's SQLite file and on a shared PostgreSQL database alike.
describe.each(BACKENDS)("a run killed with SIGKILL resumes from its last checkpoint (%s)", (backend) => {
  const db = useTestDatabase(backend);
  it("finishes on `yolo resume` without running the completed agents again, and threads/show report it", async () => {
    const project = makeProject();
    const held = deferred();
    const mock = await startMockOpenAI(
      director({
        analyst: [analystDone],
        pm: [pmDone(false)],
        // The first dev request is held open until after the kill; its reply (a wrong add) must never land.
        dev: [{ ...call("write_file", { path: "src/add.js", content: BAD_ADD }), hold: held.promise }, ...devWrites(GOOD_ADD)],
        tea: [teaSays("PASS")],
      }),
    );
    cleanups.push(project.cleanup, () => mock.close(), held.release);
    const root = project.root;

    const child = spawnYolo(["run", "--json", REQ], { cwd: root, baseURL: mock.url, env: db.env() });
    await waitFor(() => rolesOf(mock).includes("dev"), "dev's request to reach the mock");
    child.kill("SIGKILL");
    const killed = await child;
    expect(killed.signal).toBe("SIGKILL");
    const seenAtKill = mock.requests.length;
    expect(rolesOf(mock)).toEqual(["analyst", "pm", "dev"]);
    held.release();

    // What was printed before the kill is whole lines of valid events.
    const before = parseEvents(String(killed.stdout));
    expect(before.map((e) => e.type)).toContain("run.started");
    expect(before.map((e) => e.type)).not.toContain("run.completed");
    const thread = threadIdFrom(String(killed.stdout));

    const resumed = await runYolo(["resume", "--json", thread], { cwd: root, baseURL: mock.url, env: db.env() });
    expect(resumed.exitCode, describeResult(resumed)).toBe(0);
    expect(readFileSync(join(root, "src/add.js"), "utf8")).toBe(GOOD_ADD);

    const after = rolesOf(mock).slice(seenAtKill);
    expect(after).not.toContain("analyst");
    expect(after).not.toContain("pm");
    expect(after).toEqual(["dev", "dev", "tea"]);
    const events = parseEvents(resumed.stdout);
    expect(events[0]).toMatchObject({ type: "run.started", thread, resumed: true, requirement: REQ });
    expect(events.flatMap((e) => (e.type === "node.started" ? [e.node] : []))).toEqual(["dev", "tea"]);
    expect(events.at(-1)).toMatchObject({ type: "run.completed", status: "passed", exitCode: 0 });

    const threads = await runYolo(["threads"], { cwd: root, env: db.env() });
    expect(threads.exitCode, describeResult(threads)).toBe(0);
    const row = threads.stdout.split("\n").find((l) => l.startsWith(thread));
    expect(row, threads.stdout).toBeDefined();
    expect(row).toMatch(new RegExp(`^${thread}\\s+run\\s+passed\\s`));
    const threadsJson = await runYolo(["threads", "--json"], { cwd: root, env: db.env() });
    expect(JSON.parse(threadsJson.stdout)).toEqual([expect.objectContaining({ id: thread, status: "passed", requirement: REQ })]);

    const show = await runYolo(["show", thread], { cwd: root, env: db.env() });
    expect(show.exitCode, describeResult(show)).toBe(0);
    expect(show.stdout).toContain(`Thread ${thread} — passed`);
    expect(show.stdout).toContain("Requirements:");
    expect(show.stdout).toContain("Provide `add(a, b)` in `src/add.js` returning the sum.");
    expect(show.stdout).toContain("Stories:");
    expect(show.stdout).toContain("- Add numbers: as developer, I want an add(a, b) function, so that I can sum two numbers");
    expect(show.stdout).toMatch(/Files changed:\n- src\/add\.js/);
    expect(show.stdout).toMatch(/Gate results:\n- attempt \d+ test \(npm test\): passed — 2 passed, 0 failed/);
    // The checkpoints really were where the backend says (no SQLite file next to a PostgreSQL run).
    expect(existsSync(join(root, ".yolo", "yolo.db"))).toBe(backend === "sqlite");
  });
  it("counts what the killed process paid for: the calls of the node it was running are in the usage after the resume", async () => {
    const project = makeProject();
    const held = deferred();
    const mock = await startMockOpenAI(
      director({
        analyst: [analystDone],
        pm: [pmDone(false)],
        // dev's first call is answered (and paid for); the second is held open until after the kill.
        dev: [call("list_files", {}), { ...call("write_file", { path: "src/add.js", content: BAD_ADD }), hold: held.promise }, ...devWrites(GOOD_ADD)],
        tea: [teaSays("PASS")],
      }),
    );
    cleanups.push(project.cleanup, () => mock.close(), held.release);
    const root = project.root;

    // The fixture's test script as the gate: this case counts usage, and the test above proves npm test through kill
    // and resume; npm's own start is about 0.7 s of CPU on each of the two gate runs.
    const child = spawnYolo(["run", "--json", "--test-cmd", "node --test test/", REQ], { cwd: root, baseURL: mock.url, env: db.env() });
    await waitFor(() => rolesOf(mock).filter((r) => r === "dev").length === 2, "dev's second request to reach the mock");
    child.kill("SIGKILL");
    await child;
    held.release();
    const thread = threadIdFrom(String((await child).stdout));

    const resumed = await runYolo(["resume", "--json", thread], { cwd: root, baseURL: mock.url, env: db.env() });
    expect(resumed.exitCode, describeResult(resumed)).toBe(0);
    const show = await runYolo(["show", "--json", thread], { cwd: root, env: db.env() });
    const { state, thread: row } = JSON.parse(show.stdout);
    // Every request the model answered is counted once: all but the one held open when the process died.
    expect(rolesOf(mock)).toEqual(["analyst", "pm", "dev", "dev", "dev", "dev", "tea"]);
    expect(state.usage.calls).toBe(mock.requests.length - 1);
    expect(state.usageByNode.dev.calls).toBe(3);
    expect(row.unsettledUsage).toBeNull();
  });
});
