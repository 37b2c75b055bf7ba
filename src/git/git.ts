import { execa } from "execa";
import { YoloError } from "../errors.js";

/** A git command that failed where yolo needed it to work (exit 70 unless a caller maps it to something better). */
export class GitError extends YoloError {
  constructor(message: string, options?: { cause?: unknown }) {
    super("git", message, options);
  }
}

export interface GitResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/** Pathspec for "the project, without yolo's own state folder" (it ignores itself; this makes sure). */
export const PROJECT_PATHS = ["--", ".", ":(exclude).yolo"];

/**
 * Runs git in `root` and returns what happened, never throwing for a non-zero exit. No prompts (no terminal,
 * no credential helper questions), C locale so output can be parsed.
 */
export async function git(root: string, args: string[], env: Record<string, string> = {}): Promise<GitResult> {
  try {
    const r = await execa("git", args, {
      cwd: root,
      reject: false,
      stdin: "ignore",
      env: { GIT_TERMINAL_PROMPT: "0", LC_ALL: "C", ...env },
      stripFinalNewline: false,
    });
    return { exitCode: r.exitCode ?? 1, stdout: String(r.stdout), stderr: String(r.stderr) };
  } catch (error) {
    return { exitCode: 127, stdout: "", stderr: (error as Error).message };
  }
}

/** Runs git and returns its stdout; a failure is a GitError quoting git's own message. */
export async function gitOk(root: string, args: string[], env: Record<string, string> = {}): Promise<string> {
  const r = await git(root, args, env);
  if (r.exitCode !== 0) {
    throw new GitError(`git ${args.join(" ")} failed in ${root} (exit ${r.exitCode}): ${(r.stderr || r.stdout).trim().slice(0, 500)}`);
  }
  return r.stdout;
}
