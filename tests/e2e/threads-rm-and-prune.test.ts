import { execFileSync } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createRequire } from "node:module";
import { describe, it } from "vitest";
import { deferred, describeResult, runYolo, spawnYolo, threadIdFrom, waitFor } from "../helpers/cli.js";
import { analystDone, devWrites, director, GOOD_ADD, pmDone, teaSays } from "../helpers/director.js";
import { mockWith, project } from "../helpers/per-test.js";

// better-sqlite3 ships no types; the tests that open the database read it through require, as the store does.
const Database = createRequire(import.meta.url)("better-sqlite3");

const REQ = "Add an add(a, b) function to src/add.js";
// The fixture's test script given as the gate: these cases are about deleting threads, not npm's
// detection, and npm's own start is about 0.7 s of CPU a gate run. The detected npm test end to end:
// tests/e2e/run-exit-codes.test.ts and tests/e2e/stories-kill-resume.test.ts.
const GATE = ["--test-cmd", "node --test test/"];
const passing = () => director({ analyst: [analystDone], pm: [pmDone(false)], dev: devWrites(GOOD_ADD), tea: [teaSays("PASS")] });

describe.concurrent("deleting old threads", { timeout: 240_000 }, () => {
  it("threads rm: checkpoints, index row, artifacts and the start snapshot's ref go; the other thread stays; an unknown id is exit 2", async ({
    expect,
    onTestFinished,
  }) => {
    const root = project(onTestFinished);
    writeFileSync(join(root, "notes.txt"), "dirty\n");
    const a = threadIdFrom((await runYolo(["run", ...GATE, "--json", REQ], { cwd: root, baseURL: (await mockWith(onTestFinished, passing())).url })).stdout);
    const b = threadIdFrom((await runYolo(["run", ...GATE, "--json", REQ], { cwd: root, baseURL: (await mockWith(onTestFinished, passing())).url })).stdout);
    const refs = () => execFileSync("git", ["for-each-ref", "--format=%(refname)", "refs/yolo"], { cwd: root, encoding: "utf8" });
    expect(refs()).toContain(`refs/yolo/${a}/start`);

    const r = await runYolo(["threads", "rm", a], { cwd: root });
    expect(r.exitCode, describeResult(r)).toBe(0);
    expect(r.stdout).toBe(`Deleted thread ${a}: checkpoints, index row, transcripts, gate logs and run log.\n`);
    const listed = JSON.parse((await runYolo(["threads", "--json"], { cwd: root })).stdout) as { id: string }[];
    expect(listed.map((t) => t.id)).toEqual([b]);
    const show = await runYolo(["show", a], { cwd: root });
    expect(show.exitCode).toBe(2);
    expect(show.stderr).toContain(`No thread ${a}`);
    expect(existsSync(join(root, ".yolo/threads", a))).toBe(false);
    expect(existsSync(join(root, ".yolo/logs", `${a}.log`))).toBe(false);
    expect(existsSync(join(root, ".yolo/threads", b))).toBe(true);
    expect(refs()).not.toContain(a);
    expect(refs()).toContain(b);

    const unknown = await runYolo(["threads", "rm", "nosuch", b], { cwd: root });
    expect(unknown.exitCode, describeResult(unknown)).toBe(2);
    expect(unknown.stderr).toBe("yolo: No thread nosuch in this project. List threads with `yolo threads`.\n");
    // The valid id in the same command was still deleted.
    expect(unknown.stdout).toContain(`Deleted thread ${b}`);
  });

  it("threads rm refuses a thread another process is running; it finishes untouched", async ({ expect, onTestFinished }) => {
    const root = project(onTestFinished);
    const gate = deferred();
    const script = passing();
    const mock = await mockWith(onTestFinished, async (req, i) => {
      if (i === 0) await gate.promise;
      return script(req, i);
    });
    const child = spawnYolo(["run", ...GATE, "--json", REQ], { cwd: root, baseURL: mock.url });
    let out = "";
    child.stdout?.on("data", (d: Buffer) => (out += d.toString()));
    await waitFor(() => mock.requests.length > 0, "the first model request");

    const r = await runYolo(["threads", "rm", threadIdFrom(out)], { cwd: root });
    expect(r.exitCode, describeResult(r)).toBe(2);
    expect(r.stderr).toMatch(/is being run by another yolo process/);
    gate.release();
    expect((await child).exitCode).toBe(0);
  });

  it("threads prune --older-than 30d deletes only threads not run for 30 days (--dry-run deletes nothing)", async ({ expect, onTestFinished }) => {
    const root = project(onTestFinished);
    const old = threadIdFrom((await runYolo(["run", ...GATE, "--json", REQ], { cwd: root, baseURL: (await mockWith(onTestFinished, passing())).url })).stdout);
    const fresh = threadIdFrom(
      (await runYolo(["run", ...GATE, "--json", REQ], { cwd: root, baseURL: (await mockWith(onTestFinished, passing())).url })).stdout,
    );
    const db = new Database(join(root, ".yolo/yolo.db"));
    db.prepare("UPDATE yolo_threads SET updated_at = ? WHERE id = ?").run(new Date(Date.now() - 40 * 86_400_000).toISOString(), old);
    db.close();

    const dry = await runYolo(["threads", "prune", "--older-than", "30d", "--dry-run"], { cwd: root });
    expect(dry.stdout).toContain(`Would delete thread ${old}`);
    expect(dry.stdout).not.toContain(fresh);
    const r = await runYolo(["threads", "prune", "--older-than", "30d"], { cwd: root });
    expect(r.exitCode, describeResult(r)).toBe(0);
    expect(r.stdout).toContain(`Deleted thread ${old}`);
    expect(r.stdout).toContain("1 thread not run for 30d deleted.");
    const listed = JSON.parse((await runYolo(["threads", "--json"], { cwd: root })).stdout) as { id: string }[];
    expect(listed.map((t) => t.id)).toEqual([fresh]);

    const bad = await runYolo(["threads", "prune", "--older-than", "soon"], { cwd: root });
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('--older-than "soon" is not a duration');
  });
});
