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
  const guarded = listed.split("\0").filter((rel) => rel !== "" && isGuarded(rel, rules));
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

function isGuarded(rel: string, rules: GuardRules): boolean {
  if (sensitiveReason(rel) !== null) return true;
  return rules.exec && execFileReason(rel) !== null && !execFileAllowed(rel, rules.allowExec ?? []);
}
