import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "vitest";
import { describeResult, parseEvents, rolesOf, runYolo, spawnYolo, threadIdFrom, waitFor, deferred } from "../helpers/cli.js";
import { analystDone, BAD_ADD, call, devWrites, director, GOOD_ADD, pmDone, teaSays } from "../helpers/director.js";
import { mockWith, project } from "../helpers/per-test.js";
import { runShellLine, yoloShim } from "../helpers/shell.js";

const REQ = "Add an add(a, b) function to src/add.js";
// The fixture's test script given as the gate: these cases are about exit codes under --ci, not npm's detection, and
// npm's own start costs about 0.5 s of CPU a gate run. A resume keeps the thread's command. The same exit codes with
// the detected `npm test`: tests/e2e/run-exit-codes.test.ts.
const GATE = ["--test-cmd", "node --test test/"];
/** How the printed resume command repeats GATE, so a resume keeps it (exact, as printed). */
const RESUME_GATE = " --test-cmd 'node --test test/'";

/** The final event of a --json run: its exit code must be the process's. */
function completed(stdout: string) {
  const done = parseEvents(stdout).at(-1);
  if (done?.type !== "run.completed") throw new Error(`the last event is not run.completed:\n${stdout}`);
  return done;
}

describe.concurrent("yolo run --ci: every exit code, repeated by the run.completed event", { timeout: 240_000 }, () => {
  it("0: passed", async ({ expect, onTestFinished }) => {
    const root = project(onTestFinished);
    const mock = await mockWith(onTestFinished, director({ analyst: [analystDone], pm: [pmDone(false)], dev: devWrites(GOOD_ADD), tea: [teaSays("PASS")] }));
    const r = await runYolo(["run", ...GATE, "--ci", "--json", REQ], { cwd: root, baseURL: mock.url });
    expect(r.exitCode, describeResult(r)).toBe(0);
    expect(completed(r.stdout)).toMatchObject({ status: "passed", exitCode: 0, resumeCommand: null });
  });

  // No fix attempt: the exit code is what this proves; a fix attempt counted is tests/e2e/run-exit-codes.test.ts's "1".
  it("1: the gate still fails after the fix attempts", async ({ expect, onTestFinished }) => {
    const root = project(onTestFinished);
    const mock = await mockWith(onTestFinished, director({ analyst: [analystDone], pm: [pmDone(false)], dev: devWrites(BAD_ADD), tea: [teaSays("FAIL")] }));
    const r = await runYolo(["run", ...GATE, "--ci", "--json", "--max-fix-attempts", "0", REQ], { cwd: root, baseURL: mock.url });
    expect(r.exitCode, describeResult(r)).toBe(1);
    expect(completed(r.stdout)).toMatchObject({ status: "failed", exitCode: 1 });
    expect(r.stderr).toMatch(/yolo: failed \(exit 1\): gate test still failing/);
  });

  it("2: a configuration error, before anything runs", async ({ expect, onTestFinished }) => {
    const root = project(onTestFinished);
    const r = await runYolo(["run", "--ci", "--json", REQ], { cwd: root });
    expect(r.exitCode, describeResult(r)).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("OPENAI_API_KEY");
  });

  it("3: a question; stdin stays closed, the run does not wait, and the printed resume command answers it", async ({ expect, onTestFinished }) => {
    const root = project(onTestFinished);
    const question = "Integers only, or floats too?";
    const mock = await mockWith(
      onTestFinished,
      director({
        analyst: [call("handoff", { escalate_to_human: true, question }), analystDone],
        pm: [pmDone(false)],
        dev: devWrites(GOOD_ADD),
        tea: [teaSays("PASS")],
      }),
    );
    const r = await runYolo(["run", ...GATE, "--ci", REQ], { cwd: root, baseURL: mock.url });
    expect(r.exitCode, describeResult(r)).toBe(3);
    expect(r.timedOut).toBe(false);
    expect(r.stdout).toContain(question);
    expect(r.stdout).not.toMatch(/Your answer/);
    const printed = /resume: (yolo resume .*)$/m.exec(r.stdout)?.[1];
    expect(printed, r.stdout).toMatch(/^yolo resume [a-z0-9]{8} --test-cmd 'node --test test\/' --answer "<your answer>"$/);

    const shim = yoloShim();
    onTestFinished(shim.cleanup);
    const answered = await runShellLine(printed!.replace("<your answer>", "Floats too"), shim.dir, { cwd: root, baseURL: mock.url, env: { CI: "true" } });
    expect(answered.exitCode, describeResult(answered)).toBe(0);
    expect(rolesOf(mock)).toEqual(["analyst", "analyst", "pm", "dev", "dev", "tea"]);
  });

  it("6: a limit (turns)", async ({ expect, onTestFinished }) => {
    const root = project(onTestFinished);
    const listing = Array.from({ length: 3 }, () => call("list_files", { path: "." }));
    const mock = await mockWith(onTestFinished, director({ analyst: [analystDone], pm: [pmDone(false)], dev: listing }));
    const r = await runYolo(["run", ...GATE, "--ci", "--json", "--max-turns", "2", REQ], { cwd: root, baseURL: mock.url });
    expect(r.exitCode, describeResult(r)).toBe(6);
    expect(completed(r.stdout)).toMatchObject({
      status: "limit",
      limit: "turns",
      exitCode: 6,
      resumeCommand: `yolo resume ${threadIdFrom(r.stdout)}${RESUME_GATE}`,
    });
  });

  it("5: a provider error", async ({ expect, onTestFinished }) => {
    const root = project(onTestFinished);
    const mock = await mockWith(onTestFinished, () => ({ status: 401 }));
    const r = await runYolo(["run", ...GATE, "--ci", "--json", REQ], { cwd: root, baseURL: mock.url, env: { OPENAI_API_KEY: "sk-bad" } });
    expect(r.exitCode, describeResult(r)).toBe(5);
    expect(completed(r.stdout)).toMatchObject({ status: "provider_error", exitCode: 5 });
  });

  it("70: yolo cannot use its database", async ({ expect, onTestFinished }) => {
    const root = project(onTestFinished);
    writeFileSync(join(root, "not-a-db.sqlite"), "this is not SQLite".repeat(100));
    const mock = await mockWith(onTestFinished, director({}));
    const r = await runYolo(["run", "--ci", "--db", "not-a-db.sqlite", REQ], { cwd: root, baseURL: mock.url });
    expect(r.exitCode, describeResult(r)).toBe(70);
    expect(r.stderr).toContain("not-a-db.sqlite");
    expect(mock.requests).toHaveLength(0);
  });

  it("130: the CI job is cancelled (SIGTERM); the printed resume command (with --db) finishes the thread", async ({ expect, onTestFinished }) => {
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
    const child = spawnYolo(["run", ...GATE, "--ci", "--json", "--db", "ci.db", REQ], { cwd: root, baseURL: mock.url });
    await waitFor(() => rolesOf(mock).includes("dev"), "dev's request to reach the mock");
    child.kill("SIGTERM");
    const first = await child;
    expect(first.exitCode, `${first.stdout}\n${first.stderr}`).toBe(130);
    const done = completed(String(first.stdout));
    expect(done).toMatchObject({
      status: "interrupted",
      exitCode: 130,
      resumeCommand: `yolo resume ${threadIdFrom(String(first.stdout))} --db ci.db${RESUME_GATE}`,
    });
    held.release();

    const shim = yoloShim();
    onTestFinished(shim.cleanup);
    const resumed = await runShellLine(`${done.resumeCommand} --ci --json`, shim.dir, { cwd: root, baseURL: mock.url });
    expect(resumed.exitCode, describeResult(resumed)).toBe(0);
  });
});
