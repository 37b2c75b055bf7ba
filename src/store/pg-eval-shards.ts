import type { Pool } from "pg";
import { openPostgresPool, postgresError, withSetupLock } from "./pg-pool.js";

/**
 * `yolo eval`'s shard records in the team's PostgreSQL database, beside the threads' tables: one row per shard of
 * an eval of a repository, holding the record as the shard wrote it (JSON text, the same document as its file), so
 * shards on several machines write to one place and any machine merges them. Added by CREATE IF NOT EXISTS: a
 * database yolo set up before knows nothing of it and loses nothing.
 */
const TABLE = `CREATE TABLE IF NOT EXISTS yolo_eval_shards (
  repo TEXT NOT NULL,
  name TEXT NOT NULL,
  shard_n INTEGER NOT NULL,
  shard_k INTEGER NOT NULL,
  host TEXT,
  written_at TEXT NOT NULL,
  record TEXT NOT NULL,
  PRIMARY KEY (repo, name, shard_n, shard_k)
)`;

/** A stored shard record: which shard, where and when it was written, and the record's JSON text. */
export interface EvalShardRow {
  name: string;
  k: number;
  n: number;
  host: string | null;
  writtenAt: string;
  record: string;
}

// Opens the database, makes the table when missing (under yolo's setup lock), runs `fn`, closes.
async function withShards<T>(url: string, fn: (pool: Pool) => Promise<T>): Promise<T> {
  const pool = await openPostgresPool(url);
  try {
    await withSetupLock(pool, async () => void (await pool.query(TABLE)));
    return await fn(pool);
  } catch (cause) {
    throw postgresError(url, cause);
  } finally {
    await pool.end().catch(() => {});
  }
}

/** Writes (or replaces: a shard run again) one shard's record of the eval `name` of repository `repo`. */
export function saveEvalShard(url: string, repo: string, row: EvalShardRow): Promise<void> {
  return withShards(url, async (pool) => {
    await pool.query(
      `INSERT INTO yolo_eval_shards (repo, name, shard_n, shard_k, host, written_at, record) VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (repo, name, shard_n, shard_k) DO UPDATE SET host = EXCLUDED.host, written_at = EXCLUDED.written_at, record = EXCLUDED.record`,
      [repo, row.name, row.n, row.k, row.host, row.writtenAt, row.record],
    );
  });
}

/** The shard records of repository `repo`: of the eval `name`, or of every eval when null. */
export function loadEvalShards(url: string, repo: string, name: string | null): Promise<EvalShardRow[]> {
  return withShards(url, async (pool) => {
    const { rows } = await pool.query<{ name: string; shard_k: number; shard_n: number; host: string | null; written_at: string; record: string }>(
      `SELECT name, shard_k, shard_n, host, written_at, record FROM yolo_eval_shards WHERE repo = $1 AND ($2::text IS NULL OR name = $2)
       ORDER BY name, shard_n, shard_k`,
      [repo, name],
    );
    return rows.map((r) => ({ name: r.name, k: r.shard_k, n: r.shard_n, host: r.host, writtenAt: r.written_at, record: r.record }));
  });
}
