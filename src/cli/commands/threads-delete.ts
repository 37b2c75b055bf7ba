import { parseDuration } from "../../config/duration.js";
import type { ResolvedConfig } from "../../config/schema.js";
import { databaseExists, loadStoryWorktree, openSession, type Session } from "../../engine/api-light.js";
import { ConfigError, unknownThreadError, YoloError } from "../../errors.js";
import { repoIdentity } from "../../git/repo-identity.js";
import { branchExists, dropSnapshotRef, isGitRepo } from "../../git/repo.js";
import { threadBranch } from "../../git/workspace.js";
import { deleteThread } from "../../store/delete-thread.js";
import { plural } from "../../text/plural.js";
import { loadResolvedConfig } from "../load-config.js";
import { assertSameRepository } from "../../store/same-repository.js";
import { errorText } from "../wording/error-text.js";

/** `yolo threads rm <id…>`: deletes the named threads of this repository; a running one is refused. Exit 2 if any could not be. */
export async function threadsRemoveCommand(input: { cwd: string; ids: string[] }): Promise<number> {
  const config = await loadResolvedConfig(input.cwd);
  if (!databaseExists(config)) throw new ConfigError("This project has no yolo database yet, so there are no threads to delete.");
  const session = await openSession(config);
  try {
    const repo = await repoIdentity(config.root);
    let failed = 0;
    for (const id of input.ids) {
      try {
        if (!(await session.threads.get(id)) && !(await session.checkpointer.getTuple({ configurable: { thread_id: id } }))) throw unknownThreadError(id);
        await assertSameRepository(session.threads, id, repo);
        await removeOne(config, session, id);
      } catch (error) {
        if (!(error instanceof YoloError)) throw error;
        failed++;
        process.stderr.write(`yolo: ${errorText(error)}\n`);
      }
    }
    return failed ? 2 : 0;
  } finally {
    await session.close();
  }
}

/** `yolo threads prune --older-than <duration>`: deletes this repository's threads not run for that long; running ones are kept. */
export async function threadsPruneCommand(input: { cwd: string; olderThan: string; dryRun?: boolean }): Promise<number> {
  const ms = parseDuration(input.olderThan);
  if (ms === null) throw new ConfigError(`--older-than "${input.olderThan}" is not a duration; use e.g. 30d, 12h or 90m.`);
  const config = await loadResolvedConfig(input.cwd);
  if (!databaseExists(config)) {
    process.stdout.write("No threads yet in this project: nothing to prune.\n");
    return 0;
  }
  const session = await openSession(config);
  try {
    const cutoff = new Date(Date.now() - ms).toISOString();
    const old = (await session.threads.list({ repo: await repoIdentity(config.root), root: config.root })).filter((r) => r.updatedAt < cutoff);
    let kept = 0;
    for (const row of old) {
      if (input.dryRun) {
        process.stdout.write(`Would delete thread ${row.id} (${row.status}, last run ${row.updatedAt.slice(0, 10)})\n`);
        continue;
      }
      try {
        await removeOne(config, session, row.id);
      } catch (error) {
        if (!(error instanceof YoloError)) throw error;
        kept++;
        process.stderr.write(`yolo: kept ${row.id}: ${errorText(error)}\n`);
      }
    }
    const done = input.dryRun ? "would be deleted" : "deleted";
    process.stdout.write(`${plural(old.length - kept, "thread")} not run for ${input.olderThan} ${done}${kept ? `; ${kept} kept (running)` : ""}.\n`);
    return 0;
  } finally {
    await session.close();
  }
}

// Deletes one thread and its start snapshot's ref, and says what went; the branch (the user's to merge) stays.
async function removeOne(config: ResolvedConfig, session: Session, id: string): Promise<void> {
  const deleted = await deleteThread(session, config.stateDir, id);
  const inGit = await isGitRepo(config.root);
  if (inGit) await dropSnapshotRef(config.root, id);
  // Its stories' worktrees went with its folder; their `git worktree` entries, branches and base refs go too.
  if (inGit) await (await loadStoryWorktree()).removeStoryWorktrees(config.root, config.stateDir, id);
  const branch = threadBranch(id);
  const keptBranch = inGit && (await branchExists(config.root, branch)) ? `; its branch ${branch} is kept (git branch -D ${branch} deletes it)` : "";
  process.stdout.write(`Deleted thread ${id}: checkpoints, index row${deleted.files.length ? ", transcripts, gate logs and run log" : ""}${keptBranch}.\n`);
}
