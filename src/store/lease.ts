import { hostname } from "node:os";
import { createRequire } from "node:module";
import { ThreadError } from "../errors.js";
import { withoutFsync, type Database } from "./db.js";
import { holderAlive, LEASE_TTL_MS, leaseHeldMessage, type Lease } from "./thread-store.js";

// node:crypto is loaded only when a lease is taken: listing threads reads leases but takes none, and loading it costs
// several milliseconds of a command's start.
const require = createRequire(import.meta.url);
const randomBytes = (size: number): Buffer => (require("node:crypto") as typeof import("node:crypto")).randomBytes(size);

/**
 * The SQLite lease (see ThreadStore.acquireLease). A lease whose holder stopped renewing it — killed, or a
 * process on this host that no longer exists — is taken over.
 */
export function acquireSqliteLease(db: Database, threadId: string, ttlMs = LEASE_TTL_MS): Lease {
  db.exec(
    `CREATE TABLE IF NOT EXISTS yolo_leases (thread_id TEXT PRIMARY KEY, holder TEXT NOT NULL, host TEXT NOT NULL, pid INTEGER NOT NULL, expires_at INTEGER NOT NULL)`,
  );
  const holder = `${hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`;
  const take = db.transaction(() => {
    const row = db.prepare("SELECT holder, host, pid, expires_at FROM yolo_leases WHERE thread_id = ?").get(threadId) as
      | { holder: string; host: string; pid: number; expires_at: number }
      | undefined;
    if (row && row.expires_at > Date.now() && holderAlive(row.host, row.pid)) {
      throw new ThreadError(leaseHeldMessage(threadId, row, Math.ceil((row.expires_at - Date.now()) / 1000)));
    }
    db.prepare("INSERT OR REPLACE INTO yolo_leases (thread_id, holder, host, pid, expires_at) VALUES (?, ?, ?, ?, ?)").run(
      threadId,
      holder,
      hostname(),
      process.pid,
      Date.now() + ttlMs,
    );
  });
  // A lease is about live processes, which a power loss ends too: its writes need no fsync (a killed process loses
  // none of them; the next synced commit, a checkpoint, makes them durable with it). A measurable part of a run's start (docs/performance.md).
  withoutFsync(db, take);
  const renew = setInterval(
    () => {
      try {
        withoutFsync(db, () =>
          db.prepare("UPDATE yolo_leases SET expires_at = ? WHERE thread_id = ? AND holder = ?").run(Date.now() + ttlMs, threadId, holder),
        );
      } catch {
        // A busy or closed database: the next renewal tries again; the run itself reports storage errors.
      }
    },
    Math.max(50, Math.floor(ttlMs / 3)),
  );
  renew.unref();
  return {
    threadId,
    async release() {
      clearInterval(renew);
      try {
        if (db.open) withoutFsync(db, () => db.prepare("DELETE FROM yolo_leases WHERE thread_id = ? AND holder = ?").run(threadId, holder));
      } catch {
        // Left to expire.
      }
    },
  };
}

/** True while a live process holds the thread's lease (read only: a thread marked running without one was killed). */
export function sqliteLeaseIsLive(db: Database, threadId: string): boolean {
  const table = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'yolo_leases'").get();
  if (!table) return false;
  const row = db.prepare("SELECT host, pid, expires_at FROM yolo_leases WHERE thread_id = ?").get(threadId) as
    | { host: string; pid: number; expires_at: number }
    | undefined;
  return !!row && row.expires_at > Date.now() && holderAlive(row.host, row.pid);
}
