import { databaseExists, openIndex } from "../engine/api-light.js";
import { ThreadError } from "../errors.js";
import { repoIdentity } from "../git/repo-identity.js";
import type { ThreadRow } from "../store/thread-store.js";
import { type ConfigFlags, loadResolvedConfig } from "./load-config.js";

/** The row `--last` means among a repository's threads: the one updated last; null when there are none. */
export function latestRow<T extends Pick<ThreadRow, "updatedAt">>(rows: readonly T[]): T | null {
  return rows.reduce<T | null>((a, b) => (a === null || b.updatedAt > a.updatedAt ? b : a), null);
}

/**
 * `--last`: the id of this repository's thread that ran last (any working copy of it).
 */
export async function lastThreadId(cwd: string, flags: ConfigFlags = {}): Promise<string> {
  const config = await loadResolvedConfig(cwd, flags);
  const none = () => new ThreadError('No threads yet in this project, so there is no last one. Start one with: yolo run "what to build"');
  if (!databaseExists(config)) throw none();
  const index = await openIndex(config);
  try {
    const last = latestRow(await index.threads.list({ repo: await repoIdentity(config.root), root: config.root }));
    if (!last) throw none();
    return last.id;
  } finally {
    await index.close();
  }
}
