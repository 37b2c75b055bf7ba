// The engine's door for the commands that start no run (threads, show, history, report, threads rm and prune); the
// import check lets src/cli through it and src/engine/api.ts only. Apart from api.ts because what api.ts imports
// statically is a run's start (launch, the facts' sandbox and gate probes), which these commands must not load: here
// the static imports are what `yolo threads` reads (the thread index and a thread's row), and everything else is
// imported by the loaders below only when called, so each command loads what it uses.

export type { Session } from "./session.js";
export { databaseExists, databaseName, openIndex, openSession } from "./session.js";
export { currentRow, threadStoryRuns } from "./thread-status.js";
export type { ThreadPosition } from "./position.js";

/** A stored thread's state and position read from its checkpoints (`yolo show`). */
export const loadStoredThread = () => import("./stored-thread.js");
/** A stored thread's checkpoints, oldest first (`yolo history`). */
export const loadStoredHistory = () => import("./stored-history.js");
/** A thread's state read with LangGraph (`yolo report`). */
export const loadInspect = () => import("./inspect.js");
/** A thread's story worktrees, to remove with it (`yolo threads rm` and `prune`). */
export const loadStoryWorktree = () => import("./stories/worktree.js");
/** Saving a human's reply on a waiting thread without running it (`yolo serve`). */
export const loadSaveReply = () => import("./save-answer.js");
