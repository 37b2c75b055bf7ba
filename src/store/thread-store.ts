import { readFileSync, statSync } from "node:fs";
import { hostname, userInfo } from "node:os";

/** How a thread stands: running, waiting, passed, failed, limit, provider_error, interrupted, error, pending. */
export type ThreadStatus = string;

/** One row of yolo's thread index (LangGraph's own tables hold the state; this is for listing and locating). */
export interface ThreadRow {
  id: string;
  requirement: string;
  status: ThreadStatus;
  currentNode: string | null;
  createdAt: string;
  updatedAt: string;
  /** The working copy the thread last ran in (a resume from another checkout moves it). */
  root: string;
  model: string;
  exitCode: number | null;
  reason: string | null;
  /** HEAD when the thread started (null outside git or before the first commit): reports diff against it. */
  startCommit: string | null;
  /** The branch the thread commits to (`--branch`), or null. */
  branch: string | null;
  /** The machine and user that last ran the thread (null for rows written before these columns). */
  host: string | null;
  user: string | null;
  /** The repository's identity: its normalised `origin` URL, else the root path (see git/repo-identity.ts). */
  repo: string | null;
  /** The artifacts folder (transcripts, gate logs, run logs) of the process that last ran the thread. */
  artifacts: string | null;
  /** How the thread was started: "run" (the pipeline), "agent" or "chat". */
  mode: string;
  /**
   * Usage of model calls whose node had not completed when this was written (JSON of an UnsettledRecord, see
   * engine/unsettled-usage.ts): what a run killed mid-node had paid for. Null when every call is checkpointed.
   */
  unsettledUsage: string | null;
  /** The thread and step a fork (`resume --from`) was made from; null for a thread that was not forked. */
  forkedFrom: ForkOrigin | null;
}

/** Where a forked thread came from: its parent thread and the step of the parent's checkpoint it started at. */
export interface ForkOrigin {
  thread: string;
  step: number;
}

/** The fields a run changes as it goes. */
export interface ThreadPatch {
  status?: ThreadStatus;
  currentNode?: string | null;
  exitCode?: number | null;
  reason?: string | null;
  /** Where it runs now: set when a thread is resumed, possibly from another working copy or machine. */
  root?: string;
  host?: string | null;
  user?: string | null;
  artifacts?: string | null;
  unsettledUsage?: string | null;
  /** A new thread's start snapshot, recorded once taken when the row was created before it (see prepareWorkspace). */
  startCommit?: string | null;
}

/** What `create` needs; `host` and `user` default to this process's. */
export interface NewThread {
  id: string;
  requirement: string;
  model: string;
  root: string;
  status?: ThreadStatus;
  startCommit?: string | null;
  branch?: string | null;
  repo?: string | null;
  artifacts?: string | null;
  mode?: string;
  host?: string | null;
  user?: string | null;
  /** A fork's parent thread and step. */
  forkedFrom?: ForkOrigin | null;
}

/** Which threads `list` returns: one repository's (matched by identity, or by the root it ran in), or all. */
export type ThreadFilter = { repo: string; root: string } | { all: true };

/** A held lease on one thread; release it when the run ends (it also expires on its own if the holder dies). */
export interface Lease {
  readonly threadId: string;
  release(): Promise<void>;
}

/**
 * yolo's own tables next to LangGraph's checkpoints: the thread index and the per-thread leases.
 * SQLite (sqlite-threads.ts) and PostgreSQL (pg-threads.ts) implement it with the same behaviour.
 */
export interface UpdateOptions {
  /**
   * A progress note written while a run goes on (the current node, unsettled usage): the store may return before
   * the disk has it. SQLite then skips the fsync: a killed process still leaves it in the file, and the next
   * checkpoint's synced commit makes it durable against a power cut too. PostgreSQL writes it as any other.
   */
  progress?: boolean;
}

export interface ThreadStore {
  /**
   * Records a new thread (running unless told otherwise). An id already in the index is a ThreadError. `progress`:
   * as for update (a run's own row at its start, before it has done anything to keep).
   */
  create(input: NewThread, options?: UpdateOptions): Promise<ThreadRow>;
  /** Changes the given fields and bumps `updatedAt`. False when the thread is not in the index. */
  update(id: string, patch: ThreadPatch, options?: UpdateOptions): Promise<boolean>;
  get(id: string): Promise<ThreadRow | null>;
  /** Threads, newest first. */
  list(filter: ThreadFilter): Promise<ThreadRow[]>;
  /**
   * Takes the thread's lease or refuses with a ThreadError: two processes must never run one thread at once
   * (they would interleave checkpoints and file writes). A lease whose holder stopped renewing it is taken over.
   */
  acquireLease(threadId: string, ttlMs?: number): Promise<Lease>;
  /** Whether a live process holds the thread's lease now (a row left "running" without one was killed). */
  isLive(threadId: string): Promise<boolean>;
  /** Deletes the thread's index row (its checkpoints are the checkpointer's to delete). False when there was none. */
  remove(threadId: string): Promise<boolean>;
}

/** A lease lives this long without renewal; the holder renews it every third of that. */
export const LEASE_TTL_MS = 6_000;

/** This process's machine and user, as thread rows record them. */
export function whoAmI(): { host: string; user: string } {
  let user: string;
  try {
    user = userInfo().username;
  } catch {
    // No passwd entry for this uid (some containers).
    user = String(process.getuid?.() ?? "unknown");
  }
  return { host: hostname(), user };
}

/** The lease refusal both stores give. */
export function leaseHeldMessage(threadId: string, holder: { host: string; pid: number }, seconds: number): string {
  return `Thread ${threadId} is being run by another yolo process (pid ${holder.pid} on ${holder.host}). Wait for it to finish, or if it was killed, retry in ${Math.max(1, seconds)}s when its lease expires.`;
}

/**
 * A holder on this host that no longer exists has died; on another host only the expiry tells. A killed process
 * that its parent has not reaped yet (a zombie) still answers a signal, but it is dead: in a container whose first
 * process does not reap, it stays a zombie for good, and the thread would read "running" until its lease expired.
 */
export function holderAlive(host: string, pid: number): boolean {
  if (host !== hostname()) return true;
  if (pid === process.pid) return true;
  if (goneFromProc(pid)) return false;
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
  return !isZombie(pid);
}

/**
 * True when /proc shows the process is gone, told without an exception: a signal to a gone process throws, and the
 * first error of that kind a process throws builds Node's table of system errors (about 1 ms of a start that finds a
 * killed run's lock or lease). False when it is there, or when /proc cannot tell: not mounted, or hiding other users'
 * processes (`hidepid`: then init, pid 1, is hidden too).
 */
function goneFromProc(pid: number): boolean {
  procListsAll ??= statSync("/proc/1", { throwIfNoEntry: false }) !== undefined;
  return procListsAll && Number.isSafeInteger(pid) && pid > 0 && statSync(`/proc/${pid}`, { throwIfNoEntry: false }) === undefined;
}

let procListsAll: boolean | undefined;

// Linux's /proc/<pid>/stat: the state follows the command name in parentheses (which may itself hold ") ").
function isZombie(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const state = stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
    return state === "Z" || state === "X";
  } catch {
    return false;
  }
}

/** Column names of the patchable fields, shared by both stores' UPDATE statements. */
export const PATCH_COLUMNS: Record<keyof ThreadPatch, string> = {
  status: "status",
  currentNode: "current_node",
  exitCode: "exit_code",
  reason: "reason",
  root: "root",
  host: "host",
  user: "user_name",
  artifacts: "artifacts",
  unsettledUsage: "unsettled_usage",
  startCommit: "start_commit",
};

/** A row as both databases return it (snake_case columns). */
export interface RawThreadRow {
  id: string;
  requirement: string;
  status: string;
  current_node: string | null;
  created_at: string;
  updated_at: string;
  root: string;
  model: string;
  exit_code: number | null;
  reason: string | null;
  start_commit: string | null;
  branch: string | null;
  host: string | null;
  user_name: string | null;
  repo: string | null;
  artifacts: string | null;
  mode: string | null;
  unsettled_usage?: string | null;
  parent_thread?: string | null;
  parent_step?: string | null;
}

/** The camelCase row callers see. */
export function toThreadRow(raw: RawThreadRow): ThreadRow {
  return {
    id: raw.id,
    requirement: raw.requirement,
    status: raw.status,
    currentNode: raw.current_node,
    createdAt: raw.created_at,
    updatedAt: raw.updated_at,
    root: raw.root,
    model: raw.model,
    exitCode: raw.exit_code === null || raw.exit_code === undefined ? null : Number(raw.exit_code),
    reason: raw.reason,
    startCommit: raw.start_commit ?? null,
    branch: raw.branch ?? null,
    host: raw.host ?? null,
    user: raw.user_name ?? null,
    repo: raw.repo ?? null,
    artifacts: raw.artifacts ?? null,
    mode: raw.mode ?? "run",
    unsettledUsage: raw.unsettled_usage ?? null,
    forkedFrom: raw.parent_thread ? { thread: raw.parent_thread, step: Number(raw.parent_step ?? 0) } : null,
  };
}

/** The values of a new row, in the column order of INSERT_COLUMNS. */
export const INSERT_COLUMNS = [
  "id",
  "requirement",
  "status",
  "current_node",
  "created_at",
  "updated_at",
  "root",
  "model",
  "exit_code",
  "reason",
  "start_commit",
  "branch",
  "host",
  "user_name",
  "repo",
  "artifacts",
  "mode",
  "parent_thread",
  "parent_step",
] as const;

export function insertValues(input: NewThread, now: string): unknown[] {
  const me = whoAmI();
  return [
    input.id,
    input.requirement,
    input.status ?? "running",
    null,
    now,
    now,
    input.root,
    input.model,
    null,
    null,
    input.startCommit ?? null,
    input.branch ?? null,
    input.host === undefined ? me.host : input.host,
    input.user === undefined ? me.user : input.user,
    input.repo ?? null,
    input.artifacts ?? null,
    input.mode ?? "run",
    input.forkedFrom?.thread ?? null,
    input.forkedFrom ? String(input.forkedFrom.step) : null,
  ];
}

/** The message for an id that already exists. */
export function duplicateThreadMessage(id: string): string {
  return `Thread ${id} already exists; start a new run to get a new thread id.`;
}
