import { YoloError } from "../errors.js";
import { gitEnv, hardenArgs, type RepoConfig, repoConfig, touchesContent, untrustedFilters } from "./hardened.js";
import { spawnGit, spawnGitStream, type GitResult } from "./spawn-git.js";

/** A git command that failed where yolo needed it to work (exit 70 unless a caller maps it to something better). */
export class GitError extends YoloError {
  constructor(message: string, options?: { cause?: unknown }) {
    super("git", message, options);
  }
}

export type { GitResult } from "./spawn-git.js";

/** How one git command runs, beyond its arguments and environment. */
export interface GitOptions {
  /**
   * The repository's filter drivers (untrustedFilters for this root), when a caller running several content commands
   * in a row has read them once already; read for this command otherwise.
   */
  filters?: Promise<[string, string][]>;
}

/** untrustedFilters for `root`, read once for several content commands in a row (GitOptions.filters). */
export function repositoryFilters(root: string): Promise<[string, string][]> {
  return untrustedFilters(root, gitEnv(process.env));
}

/** repositoryFilters and the origin remote's URL, read with one git command (a new thread's start needs both). */
export function repositoryConfig(root: string): Promise<RepoConfig> {
  return repoConfig(root, gitEnv(process.env));
}

/**
 * What test runs leave behind when a project does not ignore it (Python bytecode and pytest's cache, coverage data,
 * build caches): never an agent's change, so never in changed files, `show --diff`, a branch commit or the tree a
 * gate judged. Pathspec globs (`**` matches any folders, none included).
 */
export const GATE_BYPRODUCTS = [
  "**/__pycache__/**",
  "**/*.py[co]",
  "**/.pytest_cache/**",
  "**/.mypy_cache/**",
  "**/.ruff_cache/**",
  "**/.hypothesis/**",
  "**/.coverage",
  "**/.coverage.*",
  "**/.nyc_output/**",
  "**/coverage/lcov.info",
  "**/coverage/coverage-final.json",
  "**/coverage/lcov-report/**",
  "**/*.tsbuildinfo",
  "**/.eslintcache",
  "**/node_modules/.cache/**",
  "**/node_modules/.vite/**",
  "**/node_modules/.vitest/**",
];

/**
 * Pathspec for "the project, without yolo's own state folder (it ignores itself; this makes sure) nor gate byproducts".
 * Every exclusion is a wildcard (`.yol[o]/*`, `*` crossing folders) because `git add` exits 1 ("paths are ignored")
 * when a literal pathspec, even an excluding one, names a folder the user's `.gitignore` lists, as `.yolo/` often is.
 */
export const PROJECT_PATHS = ["--", ".", ":(exclude).yol[o]/*", ...GATE_BYPRODUCTS.map((glob) => `:(exclude,glob)${glob}`)];

/**
 * Runs git in `root` and returns what happened, never throwing for a non-zero exit. No prompts (no terminal,
 * no credential helper questions), C locale so output can be parsed. Hardened (see hardened.ts): no hooks, no
 * fsmonitor, no pager, editor, external diff, textconv or repository-defined filter, and an environment allow-list
 * with no secret in it (yolo's own environment is the only one git may start from, hence the one read here).
 */
export async function git(root: string, args: string[], env: Record<string, string> = {}, options: GitOptions = {}): Promise<GitResult> {
  try {
    const base = gitEnv(process.env);
    const filters = touchesContent(args) ? await (options.filters ?? untrustedFilters(root, base)) : [];
    return await spawnGit(hardenArgs(args), root, { ...(filters.length ? gitEnv(process.env, filters) : base), ...env });
  } catch (error) {
    return { exitCode: 127, stdout: "", stderr: (error as Error).message };
  }
}

/** Runs git and returns its stdout; a failure is a GitError quoting git's own message. */
export async function gitOk(root: string, args: string[], env: Record<string, string> = {}, options: GitOptions = {}): Promise<string> {
  const r = await git(root, args, env, options);
  if (r.exitCode !== 0) {
    throw new GitError(`git ${args.join(" ")} failed in ${root} (exit ${r.exitCode}): ${(r.stderr || r.stdout).trim().slice(0, 500)}`);
  }
  return r.stdout;
}

/**
 * Runs a read-only git command (log, rev-list: no work-tree content, so no filters to read) hardened like `git`,
 * handing its stdout to `onText` as it comes; `onText` returning false stops it early. A failure is a GitError.
 */
export async function gitStreamOk(root: string, args: string[], onText: (text: string) => boolean): Promise<void> {
  if (touchesContent(args)) throw new GitError(`git ${args[0]} touches work-tree content: run it with gitOk`);
  let failure: unknown = null;
  const guarded = (text: string): boolean => {
    try {
      return onText(text);
    } catch (error) {
      failure = error;
      return false;
    }
  };
  const r = await spawnGitStream(hardenArgs(args), root, gitEnv(process.env), guarded);
  if (failure) throw failure;
  if (r.exitCode !== 0) throw new GitError(`git ${args.join(" ")} failed in ${root} (exit ${r.exitCode}): ${r.stderr.trim().slice(0, 500)}`);
}
