import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, expect, it } from "vitest";
import { runShell, type RunShellOptions } from "../../../src/exec/run-shell.js";
import { setSpawnerMode, spawnerPid, spawnerScript } from "../../../src/exec/spawner.js";
import { eventually, groupMembers, isRunning } from "../../helpers/process-groups.js";
import { tempDir } from "../../helpers/per-test.js";

// A model's run_command runs with the helper as its parent: `$PPID` is the helper. These are the ways a hostile
// command can turn on it. Tests run in order: each starts a helper of its own ("helper" mode replaces a dead one).
beforeAll(() => {
  expect(existsSync(spawnerScript()), "the helper is built by `npm run build`").toBe(true);
  setSpawnerMode("helper");
});

// Never this process: were a command started directly by mistake, its $PPID would be the test worker.
const PPID = `$([ "$PPID" != ${process.pid} ] && echo $PPID)`;

const base = (cwd: string): RunShellOptions => ({ cwd, timeoutS: 60, env: { PATH: process.env.PATH }, capBytes: 4096 });

async function pidIn(file: string): Promise<number> {
  expect(await eventually(() => existsSync(file) && readFileSync(file, "utf8").trim() !== "")).toBe(true);
  return Number(readFileSync(file, "utf8").trim());
}

it("`kill -9 $PPID`: the command ends at once with a note (no hang, no wait for its timeout), its group killed", async ({ onTestFinished }) => {
  const root = tempDir(onTestFinished);
  // At once: the command runs only once yolo knows its group (the helper's gate), so even this leaves nothing behind.
  const result = await runShell(`echo $$ > pidfile; echo before; kill -9 ${PPID}; sleep 60`, base(root));
  expect(result).toMatchObject({ exitCode: null, timedOut: false, aborted: false });
  // Output the helper had not passed on yet dies with it.
  expect(result.output).toMatch(
    /^(before\n)?\n\[yolo: the helper process that started this command \(pid \d+\) ended unexpectedly; the command was stopped\]\n$/,
  );
  const group = await pidIn(join(root, "pidfile"));
  expect(await eventually(() => groupMembers(group).length === 0)).toBe(true);
});

it("`kill -STOP $PPID`: at the command's timeout the silent helper is given up on, the command ends with a note", async ({ onTestFinished }) => {
  const root = tempDir(onTestFinished);
  // The timeout must leave the shell time to start and stop its helper on a loaded machine (0.5 s did not, at load 19):
  // what is tested is what happens at the timeout once the helper is silent.
  const running = runShell(`echo $$ > pidfile; kill -STOP ${PPID}; sleep 60`, { ...base(root), timeoutS: 3, killGraceMs: 100 });
  const helper = spawnerPid();
  const result = await running;
  expect(result).toMatchObject({ exitCode: null, timedOut: true });
  expect(result.output).toMatch(/the helper process that started this command \(pid \d+\) stopped answering; the command was stopped/);
  const group = await pidIn(join(root, "pidfile"));
  expect(await eventually(() => groupMembers(group).length === 0)).toBe(true);
  // The stopped helper is killed, not left behind.
  expect(helper).toBeDefined();
  expect(await eventually(() => !isRunning(helper as number))).toBe(true);
});

it("a command sent to a helper another command has stopped ends at its own timeout (its pid never came), as does that other", async ({ onTestFinished }) => {
  const root = tempDir(onTestFinished);
  const stopper = runShell(`kill -STOP ${PPID}; echo stopped > flag; sleep 60`, base(root));
  expect(await eventually(() => existsSync(join(root, "flag")))).toBe(true);
  const late = await runShell("echo $$ > late-pid; sleep 60", { ...base(root), timeoutS: 0.3, killGraceMs: 100 });
  expect(late).toMatchObject({ exitCode: null, timedOut: true });
  expect(late.output).toMatch(/stopped answering; the command was stopped/);
  const first = await stopper;
  expect(first).toMatchObject({ exitCode: null, timedOut: false });
  expect(first.output).toMatch(/stopped answering; the command was stopped/);
  // The helper never started it.
  expect(existsSync(join(root, "late-pid"))).toBe(false);
});

it("after the helper died, later commands are started directly by yolo's process", async ({ onTestFinished }) => {
  const root = tempDir(onTestFinished);
  expect((await runShell("true", base(root))).exitCode).toBe(0);
  setSpawnerMode("auto");
  const first = await runShell(`kill -9 ${PPID}; sleep 60`, base(root));
  expect(first.output).toMatch(/ended unexpectedly/);
  const next = await runShell("echo $PPID", base(root));
  expect(next).toMatchObject({ exitCode: 0, output: `${process.pid}\n` });
  expect(spawnerPid()).toBeUndefined();
});
