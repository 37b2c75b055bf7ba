const queues = new Map<string, Promise<unknown>>();

/**
 * Runs git's worktree bookkeeping for one repository one call at a time: story and eval worktrees are added together,
 * and two `git worktree add` (or a prune beside an add) at once race on `.git/worktrees/`.
 */
export function serialWorktreeOps<T>(root: string, fn: () => Promise<T>): Promise<T> {
  const run = (queues.get(root) ?? Promise.resolve()).then(fn, fn);
  queues.set(
    root,
    run.catch(() => {}),
  );
  return run;
}
