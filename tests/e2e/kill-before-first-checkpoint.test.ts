import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BIN, describeResult, deferred, parseEvents, rolesOf, runYolo, spawnYolo, threadIdFrom, waitFor } from "../helpers/cli.js";
import { analystDone, BAD_ADD, call, devWrites, director, GOOD_ADD, pmDone, teaSays } from "../helpers/director.js";
import { startMockOpenAI } from "../helpers/mock-openai.js";
import { makeProject } from "../helpers/project.js";
import { cleanupsAfterEach } from "../helpers/cleanups.js";

// Preloaded into the child: SIGKILLs the process at the moment LangGraph is about to write the thread's first
// checkpoint — after the thread is in the index and `run.started` is out, before anything is saved. It patches the
// driver's compiled addon, loaded by its path (src/store/db.ts) wherever the driver's JavaScript comes from (node_modules
// in the ES module CLI, bundled in the run bundle), so every statement yolo prepares passes here.
const KILL_AT_FIRST_CHECKPOINT = `import { createRequire } from "node:module";
import { dirname, join } from "node:path";
const require = createRequire(process.env.YOLO_TEST_BIN);
const addon = require(join(dirname(require.resolve("better-sqlite3/package.json")), "build", "Release", "better_sqlite3.node"));
const prepare = addon.Database.prototype.prepare;
addon.Database.prototype.prepare = function (sql, ...rest) {
  if (/INTO checkpoints/.test(sql)) process.kill(process.pid, "SIGKILL");
  return prepare.call(this, sql, ...rest);
};
`;

const REQ = "Add an add(a, b) function to src/add.js";
const cleanups = cleanupsAfterEach("lastFirst");
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "yolo-kill-early-"));
  writeFileSync(join(dir, "kill.mjs"), KILL_AT_FIRST_CHECKPOINT);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("a run killed before its first checkpoint", { timeout: 240_000 }, () => {
  it("is shown as interrupted (not running), and `yolo resume` says there is nothing to resume and how to start again (exit 2)", async () => {
    const project = makeProject();
    const mock = await startMockOpenAI(director({ analyst: [analystDone], pm: [pmDone(false)], dev: devWrites(GOOD_ADD), tea: [teaSays("PASS")] }));
    cleanups.push(project.cleanup, () => mock.close());
    const root = project.root;

    const killed = await runYolo(["run", "--json", REQ], {
      cwd: root,
      baseURL: mock.url,
      nodeArgs: ["--import", pathToFileURL(join(dir, "kill.mjs")).href],
      env: { YOLO_TEST_BIN: BIN },
    });
    expect(killed.signal, describeResult(killed)).toBe("SIGKILL");
    expect(mock.requests).toHaveLength(0);
    const thread = threadIdFrom(killed.stdout);
    expect(parseEvents(killed.stdout).map((e) => e.type)).toEqual(["run.started"]);

    const threads = await runYolo(["threads"], { cwd: root });
    expect(threads.exitCode, describeResult(threads)).toBe(0);
    expect(threads.stdout).toMatch(new RegExp(`^${thread}\\s+run\\s+interrupted\\s`, "m"));
    const rows = JSON.parse((await runYolo(["threads", "--json"], { cwd: root })).stdout) as { id: string; status: string; reason: string }[];
    expect(rows).toEqual([expect.objectContaining({ id: thread, status: "interrupted" })]);
    expect(rows[0].reason).toContain("nothing to resume");

    const resumed = await runYolo(["resume", "--json", thread], { cwd: root, baseURL: mock.url });
    expect(resumed.exitCode, describeResult(resumed)).toBe(2);
    expect(resumed.stderr).toContain(`Thread ${thread} has no checkpoint: the run was stopped before its first step, so there is nothing to resume.`);
    expect(resumed.stderr).toContain(`Start it again with: yolo run '${REQ}'`);
    expect(mock.requests).toHaveLength(0);

    // The printed command really starts it again.
    const again = await runYolo(["run", "--json", REQ], { cwd: root, baseURL: mock.url });
    expect(again.exitCode, describeResult(again)).toBe(0);
  });

  it("a run killed after its first checkpoint shows as interrupted until it is resumed", async () => {
    const project = makeProject();
    const held = deferred();
    const mock = await startMockOpenAI(
      director({
        analyst: [analystDone],
        pm: [pmDone(false)],
        dev: [{ ...call("write_file", { path: "src/add.js", content: BAD_ADD }), hold: held.promise }, ...devWrites(GOOD_ADD)],
        tea: [teaSays("PASS")],
      }),
    );
    cleanups.push(project.cleanup, () => mock.close(), held.release);
    const root = project.root;

    const child = spawnYolo(["run", "--json", REQ], { cwd: root, baseURL: mock.url });
    await waitFor(() => rolesOf(mock).includes("dev"), "dev's request to reach the mock");
    const running = await runYolo(["threads"], { cwd: root });
    const thread = /^(\S+)\s+run\s+running\s/m.exec(running.stdout)?.[1];
    expect(thread, running.stdout).toBeTruthy();
    child.kill("SIGKILL");
    await child;
    held.release();

    const threads = await runYolo(["threads", "--json"], { cwd: root });
    const [row] = JSON.parse(threads.stdout) as { id: string; status: string; reason: string }[];
    expect(row).toMatchObject({ id: thread, status: "interrupted" });
    expect(row.reason).toContain(`yolo resume ${thread}`);
    const report = await runYolo(["report", thread!], { cwd: root });
    expect(report.stdout).toContain("**interrupted**");

    const resumed = await runYolo(["resume", "--json", thread!], { cwd: root, baseURL: mock.url });
    expect(resumed.exitCode, describeResult(resumed)).toBe(0);
    expect((await runYolo(["threads"], { cwd: root })).stdout).toMatch(new RegExp(`^${thread}\\s+run\\s+passed\\s`, "m"));
  });
});
