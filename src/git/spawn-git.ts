import { spawn } from "node:child_process";

/** What a git command did: its exit code and its whole output. */
export interface GitResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs git with exactly `env`, stdin closed, and collects its output. node:child_process rather than execa: git
 * is all that `yolo threads` and `yolo show` run, and execa costs them more start-up time than the rest of the
 * command. A git that cannot be started answers 127 with the reason; one killed by a signal, 1.
 */
export function spawnGit(args: string[], cwd: string, env: Record<string, string>): Promise<GitResult> {
  return new Promise((resolve) => {
    const child = spawn("git", args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => err.push(chunk));
    child.on("error", (error) => resolve({ exitCode: 127, stdout: "", stderr: error.message }));
    child.on("close", (code) => resolve({ exitCode: code ?? 1, stdout: Buffer.concat(out).toString("utf8"), stderr: Buffer.concat(err).toString("utf8") }));
  });
}
