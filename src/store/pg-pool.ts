import type { Pool, PoolClient } from "pg";
import { YoloError } from "../errors.js";

/** `user@host:port/db` of a PostgreSQL URL: what messages name. Never the password. */
export function describePostgresUrl(url: string): string {
  try {
    const u = new URL(url);
    const user = u.username ? `${decodeURIComponent(u.username)}@` : "";
    return `${user}${u.hostname || "localhost"}:${u.port || "5432"}${u.pathname && u.pathname !== "/" ? u.pathname : "/postgres"}`;
  } catch {
    return "(an unparsable PostgreSQL URL)";
  }
}

/**
 * A connection pool to `url`, checked with one round trip. pg is imported here, on first use, so a SQLite
 * project (and `yolo --version`) never loads it. An unreachable server, a refused login or a missing database
 * is a "storage" YoloError naming user, host and database.
 */
export async function openPostgresPool(url: string): Promise<Pool> {
  const { default: pg } = await import("pg");
  const pool = new pg.Pool({ connectionString: url, max: 4, connectionTimeoutMillis: 10_000, idleTimeoutMillis: 10_000 });
  // An idle client losing its server (a restart) must not crash the process; the next query reports it.
  pool.on("error", () => {});
  try {
    await pool.query("SELECT 1");
  } catch (cause) {
    await pool.end().catch(() => {});
    throw postgresError(url, cause);
  }
  return pool;
}

/** A storage error for a failure talking to the database at `url`. */
export function postgresError(url: string, cause: unknown): YoloError {
  const reason = cause instanceof Error ? cause.message || (cause as { code?: string }).code || cause.name : String(cause);
  return new YoloError(
    "storage",
    `yolo's PostgreSQL database ${describePostgresUrl(url)} is unusable (${reason}). ` +
      "Check that the server is running and reachable, and the user, password and database in YOLO_DATABASE_URL (or checkpointer.postgres in yolo.config.ts).",
    { cause },
  );
}

/** Runs `fn` holding a cluster-wide advisory lock, so concurrent first runs do not race creating the tables. */
export async function withSetupLock<T>(pool: Pool, fn: () => Promise<T>): Promise<T> {
  const client: PoolClient = await pool.connect();
  try {
    await client.query("SELECT pg_advisory_lock(hashtext('yolo.setup'))");
    try {
      return await fn();
    } finally {
      await client.query("SELECT pg_advisory_unlock(hashtext('yolo.setup'))");
    }
  } finally {
    client.release();
  }
}
