import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** What is kept on disk about a running stdio server, so a later yolo can stop it if this one is killed with -9. */
export interface PidRecord {
  server: string;
  /** The server's pid, also its process group id (it is started detached). */
  pid: number;
  /** Its start time from /proc (clock ticks since boot): a reused pid does not match. */
  started: string | null;
  /** The yolo process that started it, and its start time. */
  owner: number;
  ownerStarted: string | null;
}

/** Where a thread's server pidfiles live: `<artifacts>/threads/<thread>/mcp/`. */
export function pidDir(stateDir: string, threadId: string): string {
  return join(stateDir, "threads", threadId, "mcp");
}

/** A process's start time (field 22 of /proc/<pid>/stat), or null where /proc does not tell (not Linux, gone). */
export function processStartTime(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) may contain spaces and parentheses: count fields after its closing one.
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19] ?? null;
  } catch {
    return null;
  }
}

export function writePidfile(dir: string, record: PidRecord): string {
  mkdirSync(dir, { recursive: true });
  // `.jsonl` (one record), not `.json`: formatters run over the project (`prettier --check .`) skip it.
  const file = join(dir, `${record.server}.pid.jsonl`);
  writeFileSync(file, JSON.stringify(record));
  return file;
}

export function removePidfile(file: string): void {
  rmSync(file, { force: true });
}

function alive(pid: number, started: string | null): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const now = processStartTime(pid);
  // Without /proc a live pid is trusted as the same process only when no start time was recorded either.
  return now === started;
}

/**
 * Stops servers left behind by a yolo that was killed (-9) before it could stop them: every pidfile under
 * `<artifacts>/threads/*∕mcp/` whose owner is gone and whose server is still the process that was recorded
 * (same start time) gets its process group killed. Servers of a live yolo are left alone. Returns what was killed.
 */
export function sweepLeftovers(stateDir: string): PidRecord[] {
  const killed: PidRecord[] = [];
  let threads: string[];
  try {
    threads = readdirSync(join(stateDir, "threads"));
  } catch {
    return killed;
  }
  for (const thread of threads) {
    const dir = pidDir(stateDir, thread);
    let files: string[];
    try {
      files = readdirSync(dir).filter((f) => f.endsWith(".pid.jsonl") || f.endsWith(".pid.json"));
    } catch {
      continue;
    }
    for (const name of files) {
      const file = join(dir, name);
      let record: PidRecord;
      try {
        record = JSON.parse(readFileSync(file, "utf8")) as PidRecord;
      } catch {
        removePidfile(file);
        continue;
      }
      if (alive(record.owner, record.ownerStarted)) continue;
      if (record.started !== null && alive(record.pid, record.started)) {
        try {
          process.kill(-record.pid, "SIGKILL");
          killed.push(record);
        } catch {
          // Already gone between the check and the kill.
        }
      }
      removePidfile(file);
    }
  }
  return killed;
}
