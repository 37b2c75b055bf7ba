import { createHash } from "node:crypto";

/** One share of an eval: shard `k` (from 1) of `n`. */
export interface Shard {
  k: number;
  n: number;
}

/** The whole eval as one shard: what an eval without a shard runs, and records. */
export const WHOLE: Shard = { k: 1, n: 1 };

/**
 * Which shard (from 1) of `n` runs `task` with `model`: by a hash of the pair, not by position, so editing or
 * reordering the task file moves no other task between machines, and the models of one task spread over the shards.
 */
export function shardOf(taskId: string, modelLabel: string, n: number): number {
  const digest = createHash("sha256").update(`${taskId}\n${modelLabel}`).digest();
  return (digest.readUInt32BE(0) % n) + 1;
}

/** Whether `shard` runs `task` with `model`. */
export function inShard(shard: Shard, taskId: string, modelLabel: string): boolean {
  return shard.n === 1 || shardOf(taskId, modelLabel, shard.n) === shard.k;
}

/** `k/n` as the flag writes it. */
export function shardLabel(shard: Shard): string {
  return `${shard.k}/${shard.n}`;
}
