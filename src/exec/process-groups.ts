// Child process groups yolo started (commands, gates, hooks): signalled as a whole, and never orphaned by an exit.
const liveGroups = new Set<number>();
let exitHookInstalled = false;

/** Signals every process in the group led by `pid`; a group that is already gone is not an error. */
export function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // ESRCH: nothing left in the group.
  }
}

/** Remembers a running group so a yolo exit (a crash, a third Ctrl+C, process.exit) kills it instead of orphaning it. */
export function trackGroup(pid: number): void {
  liveGroups.add(pid);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once("exit", () => {
    for (const group of liveGroups) killGroup(group, "SIGKILL");
  });
}

/** The group has ended (or been killed): nothing to do for it at exit. */
export function untrackGroup(pid: number): void {
  liveGroups.delete(pid);
}
