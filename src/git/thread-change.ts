import { changeSince, isGitRepo, parseNumstat, type FileStat } from "./repo.js";

/** What a thread changed, read from git; or why it cannot be told. */
export type ThreadChange<T> = { ok: true; value: T } | { ok: false; note: string };

interface ThreadGitInfo {
  root: string;
  startCommit: string | null;
  branch: string | null;
}

/** Per-file lines added and removed since the thread's start commit. */
export async function threadDiffstat(t: ThreadGitInfo): Promise<ThreadChange<FileStat[]>> {
  const text = await read(t, "numstat");
  return text.ok ? { ok: true, value: parseNumstat(text.value) } : text;
}

/** `git diff --stat --patch` since the thread's start commit (new files included). */
export async function threadPatch(t: ThreadGitInfo): Promise<ThreadChange<string>> {
  return read(t, "patch");
}

async function read(t: ThreadGitInfo, what: "numstat" | "patch"): Promise<ThreadChange<string>> {
  if (!(await isGitRepo(t.root))) return { ok: false, note: `${t.root} is not a git repository` };
  if (!t.startCommit && !t.branch) {
    // Threads from before start commits were recorded, or started before the repository's first commit.
    return { ok: false, note: "the thread recorded no start commit (it started outside git or before the first commit)" };
  }
  try {
    return { ok: true, value: await changeSince(t.root, { startCommit: t.startCommit, branch: t.branch }, what) };
  } catch (error) {
    return { ok: false, note: (error as Error).message };
  }
}
