import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { ThreadError } from "../errors.js";
import { refuseLinks, withStorageError } from "./state-dir.js";
import { holderAlive } from "./thread-store.js";

/** What a live run writes in its working tree's lock file. */
export interface TreeLockHolder {
  threadId: string;
  pid: number;
  host: string;
  root: string;
  startedAt: string;
}

/** A lock held by this process; `release` removes it (only while it is still ours) and may be called more than once. */
export interface TreeLock {
  file: string;
  release(): void;
}

/**
 * Takes the one live-run lock of the working tree `root` for `threadId`, or throws a ThreadError (exit 2) naming the
 * run that holds it. Two runs in one tree would each test the other's half-made change; a story's git worktree is
 * another tree and has its own lock. A lock whose process is gone (killed, the machine restarted) is taken over.
 * The file lives in the artifacts folder, named for the host and the tree, so a shared folder keeps trees apart.
 */
export function acquireTreeLock(input: { stateDir: string; root: string; threadId: string }): TreeLock {
  const dir = join(input.stateDir, "locks");
  // yolo's folder (or its locks folder) a link: refused before anything is written through it.
  refuseLinks([input.stateDir, dir]);
  withStorageError(dir, () => mkdirSync(dir, { recursive: true }));
  const host = hostname();
  const file = join(dir, `${createHash("sha256").update(`${host}\0${input.root}`).digest("hex").slice(0, 16)}.json`);
  const mine: TreeLockHolder = { threadId: input.threadId, pid: process.pid, host, root: input.root, startedAt: new Date().toISOString() };
  // Twice at most: the second try follows taking a dead holder's file away.
  for (let attempt = 0; attempt < 2; attempt++) {
    if (tryCreate(file, mine)) return heldLock(file, mine);
    const holder = readHolder(file);
    if (holder && holder.pid !== process.pid && isAlive(holder)) throw liveRunError(holder);
    removeQuietly(file);
  }
  throw liveRunError(readHolder(file) ?? mine);
}

// "wx": creating the file is the atomic test-and-set; false when another run's file is there.
function tryCreate(file: string, holder: TreeLockHolder): boolean {
  try {
    writeFileSync(file, `${JSON.stringify(holder)}\n`, { flag: "wx" });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    return withStorageError(file, () => {
      throw error;
    });
  }
}

function heldLock(file: string, mine: TreeLockHolder): TreeLock {
  let held = true;
  const release = () => {
    if (!held) return;
    held = false;
    process.removeListener("exit", release);
    // A lock taken over meanwhile (this process was thought dead) is the other run's: left alone.
    if (readHolder(file)?.pid === mine.pid) removeQuietly(file);
  };
  process.once("exit", release);
  return { file, release };
}

/** The holder recorded in a lock file, or null when it is gone or unreadable (a half-written file counts as stale). */
export function readHolder(file: string): TreeLockHolder | null {
  try {
    const data = JSON.parse(readFileSync(file, "utf8")) as Partial<TreeLockHolder>;
    if (typeof data.pid !== "number" || typeof data.threadId !== "string") return null;
    return { threadId: data.threadId, pid: data.pid, host: String(data.host ?? ""), root: String(data.root ?? ""), startedAt: String(data.startedAt ?? "") };
  } catch {
    return null;
  }
}

/** Whether the holder's process is alive: signal 0 tests it without touching it (EPERM: alive, another user's). */
export function isAlive(holder: Pick<TreeLockHolder, "pid" | "host">): boolean {
  // The thread lease's rule: another host's holder only it can tell; a zombie here holds nothing.
  return holderAlive(holder.host || hostname(), holder.pid);
}

function removeQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // Already gone: another run took the stale lock away first.
  }
}

function liveRunError(holder: TreeLockHolder): ThreadError {
  return new ThreadError(
    `Another run of yolo is live in this working tree: thread ${holder.threadId} (pid ${holder.pid}, started ${holder.startedAt}). ` +
      "Two runs in one tree would test each other's half-made changes, so this one did not start. Wait for that run to end " +
      `(or stop it: kill ${holder.pid}), or run in another working tree (git worktree add).`,
  );
}
