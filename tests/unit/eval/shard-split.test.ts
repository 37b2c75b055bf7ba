import { describe, expect, it } from "vitest";
import { parseShardFlag } from "../../../src/cli/eval-shard.js";
import { inShard, shardOf } from "../../../src/eval/shard.js";

const TASKS = Array.from({ length: 40 }, (_, i) => `task${String(i).padStart(3, "0")}`);
const MODELS = ["oracle", "null", "gpt-4.1-mini"];
const PAIRS = TASKS.flatMap((t) => MODELS.map((m) => [t, m] as const));

// The pairs shard k of n runs.
const share = (pairs: readonly (readonly [string, string])[], k: number, n: number) =>
  pairs.filter(([t, m]) => inShard({ k, n }, t, m)).map(([t, m]) => `${t} ${m}`);

describe("an eval's split into shards", () => {
  it("gives every task run to exactly one shard, for any number of shards", () => {
    for (const n of [1, 2, 3, 4, 7]) {
      const shares = Array.from({ length: n }, (_, i) => share(PAIRS, i + 1, n));
      const all = shares.flat();
      expect(all.length, `n=${n}`).toBe(PAIRS.length);
      expect(new Set(all).size, `n=${n}`).toBe(PAIRS.length);
    }
  });

  it("spreads the runs over the shards, models of one task included", () => {
    const sizes = [1, 2, 3, 4].map((k) => share(PAIRS, k, 4).length);
    for (const size of sizes) expect(size).toBeGreaterThan(PAIRS.length / 4 / 2);
    const split = TASKS.filter((t) => new Set(MODELS.map((m) => shardOf(t, m, 4))).size > 1);
    expect(split.length).toBeGreaterThan(0);
  });

  it("depends on the pair, not its place: a reordered or shortened task file moves no other run", () => {
    const reversed = [...PAIRS].reverse();
    const fewer = PAIRS.filter(([t]) => t !== "task007");
    for (const k of [1, 2, 3]) {
      expect(share(reversed, k, 3).sort()).toEqual(share(PAIRS, k, 3).sort());
      expect(share(fewer, k, 3)).toEqual(share(PAIRS, k, 3).filter((p) => !p.startsWith("task007 ")));
    }
    // The same in another process: a fixed hash, not a random seed.
    expect(shardOf("task000", "oracle", 4)).toBe(shardOf("task000", "oracle", 4));
  });

  it("reads --shard k/n and refuses what is not a shard, saying why", () => {
    expect(parseShardFlag("2/4")).toEqual({ k: 2, n: 4 });
    expect(parseShardFlag("1/1")).toEqual({ k: 1, n: 1 });
    expect(() => parseShardFlag("3/2")).toThrow("--shard 3/2: there are only 2 shard(s): k runs from 1 to 2.");
    expect(() => parseShardFlag("0/2")).toThrow("--shard 0/2: shards are counted from 1: k runs from 1 to 2.");
    expect(() => parseShardFlag("1/0")).toThrow(/at least 1 shard/);
    expect(() => parseShardFlag("a/b")).toThrow('--shard "a/b": give <k>/<n>, two whole numbers');
    expect(() => parseShardFlag("2")).toThrow(/give <k>\/<n>/);
    expect(() => parseShardFlag("-1/2")).toThrow(/give <k>\/<n>/);
  });
});
