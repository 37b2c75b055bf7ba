import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import type { Pool } from "pg";
import { ThreadError } from "../errors.js";
import { holderAlive, LEASE_TTL_MS, leaseHeldMessage, type Lease } from "./thread-store.js";

/** The leases table; expiry is on the database's clock, so hosts with skewed clocks still agree. */
export const PG_LEASES_TABLE = `CREATE TABLE IF NOT EXISTS yolo_leases (
  thread_id TEXT PRIMARY KEY,
  holder TEXT NOT NULL,
  host TEXT NOT NULL,
  pid INTEGER NOT NULL,
  expires_at TIMESTAMPTZ NOT NULL
)`;

/**
 * The PostgreSQL lease (see ThreadStore.acquireLease): one transaction locks the thread's lease row
 * (`SELECT … FOR UPDATE`, the row created first if missing) and takes it unless a live holder's lease is unexpired.
 * A holder on this host whose process is gone is taken over at once; on another host only the expiry tells.
 */
export async function acquirePostgresLease(pool: Pool, threadId: string, ttlMs = LEASE_TTL_MS): Promise<Lease> {
  const holder = `${hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`;
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    await client.query(
      "INSERT INTO yolo_leases (thread_id, holder, host, pid, expires_at) VALUES ($1, '', '', 0, to_timestamp(0)) ON CONFLICT (thread_id) DO NOTHING",
      [threadId],
    );
    const { rows } = await client.query<{ holder: string; host: string; pid: number; remaining_ms: number }>(
      "SELECT holder, host, pid, (EXTRACT(EPOCH FROM (expires_at - clock_timestamp())) * 1000)::float8 AS remaining_ms FROM yolo_leases WHERE thread_id = $1 FOR UPDATE",
      [threadId],
    );
    const row = rows[0];
    if (row && row.holder !== "" && row.remaining_ms > 0 && holderAlive(row.host, row.pid)) {
      throw new ThreadError(leaseHeldMessage(threadId, row, Math.ceil(row.remaining_ms / 1000)));
    }
    await client.query(
      "UPDATE yolo_leases SET holder = $2, host = $3, pid = $4, expires_at = clock_timestamp() + $5 * interval '1 millisecond' WHERE thread_id = $1",
      [threadId, holder, hostname(), process.pid, ttlMs],
    );
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  } finally {
    client.release();
  }
  const renew = setInterval(
    () => {
      pool
        .query("UPDATE yolo_leases SET expires_at = clock_timestamp() + $3 * interval '1 millisecond' WHERE thread_id = $1 AND holder = $2", [
          threadId,
          holder,
          ttlMs,
        ])
        .catch(() => {
          // A lost connection: the next renewal tries again; the run itself reports storage errors.
        });
    },
    Math.max(50, Math.floor(ttlMs / 3)),
  );
  renew.unref();
  return {
    threadId,
    async release() {
      clearInterval(renew);
      await pool.query("DELETE FROM yolo_leases WHERE thread_id = $1 AND holder = $2", [threadId, holder]).catch(() => {
        // Left to expire.
      });
    },
  };
}

/** True while a live process holds the thread's lease (read only: a thread marked running without one was killed). */
export async function postgresLeaseIsLive(pool: Pool, threadId: string): Promise<boolean> {
  const { rows } = await pool.query<{ host: string; pid: number; remaining_ms: number }>(
    "SELECT host, pid, (EXTRACT(EPOCH FROM (expires_at - clock_timestamp())) * 1000)::float8 AS remaining_ms FROM yolo_leases WHERE thread_id = $1 AND holder <> ''",
    [threadId],
  );
  const row = rows[0];
  return !!row && row.remaining_ms > 0 && holderAlive(row.host, row.pid);
}
