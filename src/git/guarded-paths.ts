import { execFileAllowed, execFileReason } from "../exec/exec-files.js";
import { sensitiveReason } from "../secrets/sensitive.js";

/** A git command on some index (the user's, or a throwaway one): its stdout; a failure throws. */
export type IndexGit = (args: string[]) => Promise<string>;

/** Which staged paths yolo leaves out: secret files always, files that run code outside yolo when `exec` is set. */
export interface GuardRules {
  exec: boolean;
  /** Exec files the user lets yolo write (`files.allowExec`): committed like any other file. */
  allowExec?: readonly string[];
}

/**
 * Takes back out of the index every staged path that differs from `base` (added, changed or removed) and is a secret
 * file (as read_file judges it) or, with `rules.exec`, a file that runs code outside yolo: its entry goes back to
 * what `base` holds (or away when `base` has none). So a snapshot never carries a secret file's content, and a
 * `--branch` commit never carries a workflow, a git hook config or an `.envrc` a command left behind. Returns the
 * paths it left out (project-relative, `/`-separated).
 */
export async function unstageGuarded(indexGit: IndexGit, base: string | null, rules: GuardRules): Promise<string[]> {
  const listed = base ? await indexGit(["diff", "--cached", "--name-only", "--no-renames", "-z", base, "--"]) : await indexGit(["ls-files", "-z"]);
  const paths = listed.split("\0").filter((rel) => rel !== "");
  const gitDirs = embeddedGitDirs(paths);
  const guarded = paths.filter((rel) => isGuarded(rel, rules) || gitDirs.some((dir) => rel.startsWith(`${dir}/`)));
  if (!guarded.length) return [];
  const specs = guarded.map((rel) => `:(literal)${rel}`);
  // In batches, so a huge list never meets the argv limit.
  for (let i = 0; i < specs.length; i += 500) {
    const batch = specs.slice(i, i + 500);
    if (base) await indexGit(["reset", "-q", base, "--", ...batch]);
    else await indexGit(["rm", "-q", "--cached", "--ignore-unmatch", "--", ...batch]);
  }
  return guarded;
}

/**
 * The folders among `paths` (project-relative, `/`-separated) that are git dirs of their own: `HEAD` beside a
 * `config`, or beside something in `objects/` or `refs/`, whatever the folder is called. Checked out, such a folder
 * runs its config's fsmonitor, hooks and filters at the user's `git status` in it: never committed, whatever created
 * it (a command's are removed already: src/exec/protected-paths.ts).
 */
export function embeddedGitDirs(paths: readonly string[]): string[] {
  const inside = new Map<string, Set<string>>();
  for (const rel of paths) {
    const parts = rel.split("/");
    for (let i = 0; i < parts.length - 1; i++) {
      const dir = parts.slice(0, i + 1).join("/");
      const names = inside.get(dir) ?? new Set<string>();
      names.add(parts[i + 1]);
      inside.set(dir, names);
    }
  }
  return [...inside].filter(([, names]) => names.has("HEAD") && (names.has("config") || names.has("objects") || names.has("refs"))).map(([dir]) => dir);
}

function isGuarded(rel: string, rules: GuardRules): boolean {
  if (sensitiveReason(rel) !== null) return true;
  return rules.exec && execFileReason(rel) !== null && !execFileAllowed(rel, rules.allowExec ?? []);
}
