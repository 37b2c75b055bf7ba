import { mkdirSync, readdirSync, readFileSync, rmdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";

// Rlimits bind one process at a time, and RLIMIT_NPROC not root at all: where the cgroup v1 controllers are writable
// (yolo as root in a container, say) each sandboxed command gets a `pids` and a `memory` group of its own, so a fork
// bomb stops at `pids.max` and the command's processes together stop at `memory.limit_in_bytes`. cgroup v2 is not
// used: a process may only make child groups with controllers where systemd or the container delegated a subtree,
// and yolo's own group, holding yolo, cannot enable them (the "no internal processes" rule); rlimits apply there.

const V1_ROOT = "/sys/fs/cgroup";
let counter = 0;
/** Per controller: whether a group could be made (tried once per process), unknown until the first try. */
const usable = new Map<Controller, boolean>();

type Controller = "pids" | "memory";

/** What the command's groups limit. */
export interface CgroupLimits {
  processes: number;
  memoryBytes: number;
}

/** A command's cgroups: the folders its first process joins (their cgroup.procs), what they say, how to remove them. */
export interface CommandCgroups {
  dirs: string[];
  /** The memory group's limit in bytes, or null when there is no memory group (RLIMIT_DATA alone, per process). */
  memoryBytes: number | null;
  /** Processes of the command the kernel's OOM killer has killed so far for the group limit (0 without a memory group). */
  oomKills(): number;
  close(): void;
}

/**
 * Makes the command's pids and memory groups under yolo's own, each where it can be made (not root, a read-only /sys,
 * cgroup v2 only: none), or null when neither can: the command then runs under its rlimits alone.
 */
export function openCommandCgroups(limits: CgroupLimits): CommandCgroups | null {
  const id = `yolo-${process.pid}-${++counter}`;
  const pids = openGroup("pids", id, [["pids.max", String(Math.floor(limits.processes))]]);
  const bytes = String(Math.floor(limits.memoryBytes));
  // With swap the group could page out past its limit: memory+swap gets the same limit where the kernel accounts it.
  const memory = openGroup("memory", id, [["memory.limit_in_bytes", bytes]], [["memory.memsw.limit_in_bytes", bytes]]);
  const dirs = [pids, memory].filter((d): d is string => d !== null);
  if (!dirs.length) return null;
  return {
    dirs,
    memoryBytes: memory ? limits.memoryBytes : null,
    oomKills: () => (memory ? readOomKills(memory) : 0),
    close: () => {
      for (const dir of dirs) removeLater(dir, 0);
    },
  };
}

// One controller's group with its limits written (`optional` ones where the kernel has them), or null.
function openGroup(controller: Controller, id: string, settings: [string, string][], optional: [string, string][] = []): string | null {
  if (usable.get(controller) === false) return null;
  const parent = join(V1_ROOT, controller, ownPath(controller) ?? "/");
  const dir = join(parent, id);
  try {
    mkdirSync(dir);
    for (const [file, value] of settings) writeFileSync(join(dir, file), value);
  } catch {
    usable.set(controller, false);
    removeLater(dir, 0);
    return null;
  }
  for (const [file, value] of optional) {
    try {
      writeFileSync(join(dir, file), value);
    } catch {
      // not accounted on this kernel (no swap accounting): the limit above is the whole of it
    }
  }
  // Once per process: the groups a killed yolo (kill -9, an OOM kill) could not remove are removed now.
  if (!usable.has(controller)) removeOrphans(parent);
  usable.set(controller, true);
  return dir;
}

/** How old an orphan's folder must be before it is removed: a group another yolo has just made is never taken. */
const ORPHAN_AGE_MS = 60_000;

/**
 * Removes the empty groups of yolo processes that are gone (`yolo-<pid>-<n>` whose pid is not running). A group
 * with a process left in it is busy and stays (the kernel refuses to remove it); a pid running again under another
 * program keeps its old group until that ends.
 */
export function removeOrphans(parent: string, now = Date.now()): string[] {
  const removed: string[] = [];
  let names: string[];
  try {
    names = readdirSync(parent);
  } catch {
    return removed;
  }
  for (const name of names) {
    const pid = /^yolo-(\d+)-\d+$/.exec(name)?.[1];
    if (!pid || Number(pid) === process.pid || running(Number(pid))) continue;
    const dir = join(parent, name);
    try {
      if (now - statSync(dir).mtimeMs < ORPHAN_AGE_MS) continue;
      rmdirSync(dir);
      removed.push(dir);
    } catch {
      // busy (a process of it still runs), or gone already
    }
  }
  return removed;
}

function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

// `oom_kill N` of memory.oom_control (Linux 4.13 and later; 0 on older kernels, which do not count them).
function readOomKills(dir: string): number {
  try {
    const line = readFileSync(join(dir, "memory.oom_control"), "utf8")
      .split("\n")
      .find((l) => l.startsWith("oom_kill "));
    return line ? Number(line.split(" ")[1]) || 0 : 0;
  } catch {
    return 0;
  }
}

// yolo's own place in a v1 hierarchy (`/proc/self/cgroup`, the line that names the controller).
function ownPath(controller: Controller): string | null {
  try {
    const line = readFileSync("/proc/self/cgroup", "utf8")
      .split("\n")
      .find((l) => l.split(":")[1]?.split(",").includes(controller));
    return line ? line.split(":").slice(2).join(":") : null;
  } catch {
    return null;
  }
}

/** Groups not removed yet (a process still in them): tried once more as yolo exits, so a test worker leaves none. */
const pending = new Set<string>();
let sweepHooked = false;

// A cgroup is removed once its last process is gone (reaped a moment after the group's SIGKILL): retried a few times,
// and a last time when yolo's process exits.
function removeLater(dir: string, attempt: number): void {
  try {
    rmdirSync(dir);
    pending.delete(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EBUSY") {
      pending.delete(dir);
      return;
    }
    if (!sweepHooked) process.once("exit", sweep);
    sweepHooked = true;
    pending.add(dir);
    if (attempt < 20) setTimeout(() => removeLater(dir, attempt + 1), 50).unref();
  }
}

function sweep(): void {
  for (const dir of pending) {
    try {
      rmdirSync(dir);
    } catch {
      // still busy: a process of the command outlived yolo
    }
  }
  pending.clear();
}
