import { hostname } from "node:os";
import type { ResolvedConfig } from "../config/schema.js";
import type { Shard } from "../eval/shard.js";
import { type ShardRecord, writeShardRecord } from "../eval/shard-record.js";
import { ConfigError } from "../errors.js";
import { repoIdentity } from "../git/repo-identity.js";

/** `--shard <k>/<n>` read: shard k (from 1) of n; anything else is a usage error naming what is wrong. */
export function parseShardFlag(text: string): Shard {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  if (!m) throw new ConfigError(`--shard "${text}": give <k>/<n>, two whole numbers (--shard 2/4 runs the second of four shards).`);
  const [k, n] = [Number(m[1]), Number(m[2])];
  if (n < 1) throw new ConfigError(`--shard ${text}: an eval is split into at least 1 shard; give <k>/<n> with n of 1 or more.`);
  if (k < 1) throw new ConfigError(`--shard ${text}: shards are counted from 1: k runs from 1 to ${n}.`);
  if (k > n) throw new ConfigError(`--shard ${text}: there are only ${n} shard(s): k runs from 1 to ${n}.`);
  return { k, n };
}

/**
 * Keeps a finished shard's record where a merge finds it: in its run folder, and in the database when the threads
 * are in PostgreSQL (then any machine sharing it merges). Returns the file written.
 */
export async function keepShardRecord(config: ResolvedConfig, runDir: string, record: ShardRecord): Promise<string> {
  const file = writeShardRecord(runDir, record);
  if (config.database.kind === "postgres") {
    const { saveEvalShard } = await import("../store/pg-eval-shards.js");
    await saveEvalShard(config.database.url, await repoIdentity(config.root), {
      name: record.name,
      k: record.shard.k,
      n: record.shard.n,
      host: hostname(),
      writtenAt: record.finishedAt,
      record: JSON.stringify(record),
    });
  }
  return file;
}
