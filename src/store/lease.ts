import { hostname } from "node:os";
import { randomBytes } from "node:crypto";
import { ThreadError } from "../errors.js";
import type { Database } from "./db.js";

/** A lease lives this long without renewal; the holder renews it every third of that. */
export const LEASE_TTL_MS = 6_000;

/** A held lease on one thread; release it when the run ends (it also expires on its own if the holder dies). */
export interface Lease {
  readonly threadId: string;
  release(): void;
}

/**
 * Takes the thread's lease or refuses with a ThreadError: two processes must never run one thread at once
 * (they would interleave checkpoints and file writes). A lease whose holder stopped renewing it — killed, or a
 * process on this host that no longer exists — is taken over.
 */
export function acquireLease(db: Database, threadId: string, ttlMs = LEASE_TTL_MS): Lease {
  db.exec(`CREATE TABLE IF NOT EXISTS yolo_leases (thread_id TEXT PRIMARY KEY, holder TEXT NOT NULL, host TEXT NOT NULL, pid INTEGER NOT NULL, expires_at INTEGER NOT NULL)`);
  const holder = `${hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`;
  const take = db.transaction(() => {
    const row = db.prepare("SELECT holder, host, pid, expires_at FROM yolo_leases WHERE thread_id = ?").get(threadId) as
      | { holder: string; host: string; pid: number; expires_at: number }
      | undefined;
    if (row && row.expires_at > Date.now() && isAlive(row.host, row.pid)) {
      const seconds = Math.ceil((row.expires_at - Date.now()) / 1000);
      throw new ThreadError(
        `Thread ${threadId} is being run by another yolo process (pid ${row.pid} on ${row.host}). Wait for it to finish, or if it was killed, retry in ${seconds}s when its lease expires.`,
      );
    }
    db.prepare("INSERT OR REPLACE INTO yolo_leases (thread_id, holder, host, pid, expires_at) VALUES (?, ?, ?, ?, ?)").run(
      threadId, holder, hostname(), process.pid, Date.now() + ttlMs,
    );
  });
  take();
  const renew = setInterval(() => {
    try {
      db.prepare("UPDATE yolo_leases SET expires_at = ? WHERE thread_id = ? AND holder = ?").run(Date.now() + ttlMs, threadId, holder);
    } catch {
      // A busy or closed database: the next renewal tries again; the run itself reports storage errors.
    }
  }, Math.max(50, Math.floor(ttlMs / 3)));
  renew.unref();
  return {
    threadId,
    release() {
      clearInterval(renew);
      try {
        if (db.open) db.prepare("DELETE FROM yolo_leases WHERE thread_id = ? AND holder = ?").run(threadId, holder);
      } catch {
        // Left to expire.
      }
    },
  };
}

/** True while a live process holds the thread's lease (read only: a thread marked running without one was killed). */
export function leaseIsLive(db: Database, threadId: string): boolean {
  const table = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'yolo_leases'").get();
  if (!table) return false;
  const row = db.prepare("SELECT host, pid, expires_at FROM yolo_leases WHERE thread_id = ?").get(threadId) as { host: string; pid: number; expires_at: number } | undefined;
  return !!row && row.expires_at > Date.now() && isAlive(row.host, row.pid);
}

// A holder on this host that no longer exists has died; on another host only the expiry tells.
function isAlive(host: string, pid: number): boolean {
  if (host !== hostname()) return true;
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
