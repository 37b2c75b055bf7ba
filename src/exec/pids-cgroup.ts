import { mkdirSync, readFileSync, rmdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

// RLIMIT_NPROC does not bind root, so where the cgroup v1 pids controller is writable (yolo runs as root in a
// container, say) each sandboxed command gets a pids cgroup of its own with `pids.max` set: a fork bomb stops there.

const PIDS_ROOT = "/sys/fs/cgroup/pids";
let counter = 0;
let usable: boolean | undefined;

/** A command's pids cgroup: the folder its first process joins (its cgroup.procs), and how to remove it afterwards. */
export interface PidsCgroup {
  dir: string;
  close(): void;
}

/**
 * Makes a pids cgroup limited to `max` processes under yolo's own, or null where that cannot be done (cgroup v2 only,
 * not root, a read-only /sys): the command then runs under RLIMIT_NPROC alone. Tried once per process.
 */
export function openPidsCgroup(max: number): PidsCgroup | null {
  if (usable === false) return null;
  const dir = join(PIDS_ROOT, ownPidsPath() ?? "/", `yolo-${process.pid}-${++counter}`);
  try {
    mkdirSync(dir);
    writeFileSync(join(dir, "pids.max"), String(Math.floor(max)));
  } catch {
    usable = false;
    removeLater(dir, 0);
    return null;
  }
  usable = true;
  return { dir, close: () => removeLater(dir, 0) };
}

// yolo's own place in the pids hierarchy (`/proc/self/cgroup`, the `pids` line of cgroup v1).
function ownPidsPath(): string | null {
  try {
    const line = readFileSync("/proc/self/cgroup", "utf8")
      .split("\n")
      .find((l) => l.split(":")[1]?.split(",").includes("pids"));
    return line ? line.split(":").slice(2).join(":") : null;
  } catch {
    return null;
  }
}

// A cgroup is removed once its last process is gone (reaped a moment after the group's SIGKILL): retried a few times.
function removeLater(dir: string, attempt: number): void {
  try {
    rmdirSync(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EBUSY" || attempt >= 20) return;
    setTimeout(() => removeLater(dir, attempt + 1), 50).unref();
  }
}
