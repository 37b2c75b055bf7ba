import { type ChildProcess, spawn } from "node:child_process";
import { launchIfSpawnerUp } from "../exec/spawner.js";
import { gitOnPath } from "./git-binary.js";

/** What a git command did: its exit code and its whole output. */
export interface GitResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs git with exactly `env`, stdin closed, and collects its output: through the spawner helper when a run has it up
 * (Node then forks that small process, not yolo's large one: the gate checks' work-tree hashes run several gits a
 * superstep, docs/performance.md), directly otherwise. A git that cannot be started answers 127 with the reason; one
 * killed by a signal, 1.
 */
export async function spawnGit(args: string[], cwd: string, env: Record<string, string>): Promise<GitResult> {
  return (await throughHelper(args, cwd, env)) ?? spawnGitDirect(args, cwd, env);
}

// git started by the spawner helper if it is up; null when it is not, or it started nothing (then git runs directly).
async function throughHelper(args: string[], cwd: string, env: Record<string, string>): Promise<GitResult | null> {
  const file = gitOnPath(env.PATH);
  if (!file) return null;
  const out: Uint8Array[] = [];
  const err: Uint8Array[] = [];
  const bytes = (chunk: Uint8Array | string) => (typeof chunk === "string" ? Buffer.from(chunk) : chunk);
  const launched = launchIfSpawnerUp({ file, args, cwd, env, onOutput: (c) => out.push(bytes(c)), onStderr: (c) => err.push(c), onPid: () => {} });
  const end = launched ? await launched.ended : null;
  if (!end) return null;
  const text = (chunks: Uint8Array[]) => Buffer.concat(chunks).toString("utf8");
  // Killed by a signal, or the helper died under it (its note then came as output): a failure, as a direct spawn's.
  if (end.exitCode === null) return { exitCode: 1, stdout: "", stderr: text([...err, ...out]) };
  return { exitCode: end.exitCode, stdout: text(out), stderr: text(err) };
}

// node:child_process rather than execa: git is all that `yolo threads` and `yolo show` run, and execa costs them more
// start-up time than the rest of the command.
function spawnGitDirect(args: string[], cwd: string, env: Record<string, string>): Promise<GitResult> {
  return new Promise((resolve) => {
    const child = spawn("git", args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    if (lettingGo) unrefProcess(child);
    else {
      running.add(child);
      child.on("close", () => running.delete(child));
    }
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => err.push(chunk));
    child.on("error", (error) => resolve({ exitCode: 127, stdout: "", stderr: error.message }));
    child.on("close", (code) => resolve({ exitCode: code ?? 1, stdout: Buffer.concat(out).toString("utf8"), stderr: Buffer.concat(err).toString("utf8") }));
  });
}

// The direct gits still running, for letRunningGitsGo; once it was called, every git started is let go at once.
const running = new Set<ChildProcess>();
let lettingGo = false;

/**
 * Lets the direct gits go, those running and those a chain of reads starts later: they no longer hold the process's
 * exit, and end on their own (killing one could leave its index lock behind). Only the early reads' copy of this
 * module (bin/yolo.js's, src/cli/early-reads.ts) is ever let go: it runs nothing else.
 */
export function letRunningGitsGo(): void {
  lettingGo = true;
  for (const child of running) unrefProcess(child);
  running.clear();
}

function unrefProcess(child: ChildProcess): void {
  child.unref();
  for (const stream of [child.stdout, child.stderr]) (stream as { unref?(): void } | null)?.unref?.();
}

/**
 * Like spawnGit, but stdout goes to `onText` as it arrives (UTF-8 decoded across chunk boundaries) instead of being
 * collected; `onText` returning false stops git there (killed: the caller has all it wants, and the answer is exit 0).
 */
export function spawnGitStream(args: string[], cwd: string, env: Record<string, string>, onText: (text: string) => boolean): Promise<GitResult> {
  return new Promise((resolve) => {
    const child = spawn("git", args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    const err: Buffer[] = [];
    let stopped = false;
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (text: string) => {
      if (stopped) return;
      if (onText(text) === false) {
        stopped = true;
        child.kill();
      }
    });
    child.stderr.on("data", (chunk: Buffer) => err.push(chunk));
    child.on("error", (error) => resolve({ exitCode: 127, stdout: "", stderr: error.message }));
    child.on("close", (code) => resolve({ exitCode: stopped ? 0 : (code ?? 1), stdout: "", stderr: Buffer.concat(err).toString("utf8") }));
  });
}
