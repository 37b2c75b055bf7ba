import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { notRunResult } from "../../../src/eval/budget.js";
import { mergeShards } from "../../../src/eval/merge.js";
import { inShard, type Shard } from "../../../src/eval/shard.js";
import { readShardRecords, type ShardRecord, type ShardSource, shardRecord, writeShardRecord } from "../../../src/eval/shard-record.js";
import { summarize } from "../../../src/eval/summary.js";
import type { EvalTask, TaskResult } from "../../../src/eval/types.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const task = (id: string, requirement = `fix ${id}`): EvalTask =>
  ({ v: 1, id, commit: "c", parent: "p", requirement, testFiles: [], sourceFiles: [], gates: [], targets: ["x"], guards: [] }) as EvalTask;
const TASKS = ["a1", "b2", "c3", "d4", "e5", "f6"].map((id) => task(id));
const MODELS = [
  { label: "oracle", name: "oracle" },
  { label: "null", name: "null" },
];

// The result a model gets on a task: the oracle resolves all but e5, the null model none.
const result = (t: EvalTask, model: string): TaskResult => ({
  ...notRunResult(t, model, "", "hidden"),
  verdict: model === "oracle" && t.id !== "e5" ? "resolved" : "unresolved",
  reason: "judged",
  tokens: 10,
  wallMs: 1000,
});

function record(shard: Shard, over: Partial<Parameters<typeof shardRecord>[0]> = {}): ShardRecord {
  const tasks = over.tasks ?? TASKS;
  const results = MODELS.flatMap((m) => tasks.filter((t) => inShard(shard, t.id, m.label)).map((t) => result(t, m.label)));
  return shardRecord({ name: "history", shard, tasks, tests: "hidden", prompts: "p1", models: MODELS, host: "h", results, ...over });
}

const src = (r: ShardRecord, from = `shard ${r.shard.k}`): ShardSource => ({ from, record: r });

describe("merging an eval's shards", () => {
  it("gives the unsharded eval's results, in its order, with figures over the union", () => {
    const whole = record({ k: 1, n: 1 });
    const merged = mergeShards([3, 1, 2].map((k) => src(record({ k, n: 3 }))));
    expect(merged.missing).toEqual([]);
    expect(merged.results).toEqual(whole.results);
    const labels = MODELS.map((m) => m.label);
    expect(summarize(merged.results, labels)).toEqual(summarize(whole.results, labels));
    // 5 of 6: the interval is the union's (not the mean of the shards').
    expect(summarize(merged.results, labels)[0]).toMatchObject({ resolved: 5, tasks: 6 });
  });

  it("reads records back from a run folder, and names a path that holds none", () => {
    const dir = mkdtempSync(join(tmpdir(), "yolo-shards-"));
    dirs.push(dir);
    writeShardRecord(dir, record({ k: 1, n: 2 }));
    writeShardRecord(dir, record({ k: 2, n: 2 }));
    writeFileSync(join(dir, "notes.json"), "{}");
    const read = readShardRecords([dir]);
    if ("error" in read) throw new Error(read.error);
    expect(read.map((s) => s.record.shard.k)).toEqual([1, 2]);
    const empty = mkdtempSync(join(tmpdir(), "yolo-shards-"));
    dirs.push(empty);
    expect(readShardRecords([empty])).toEqual({ error: expect.stringContaining(`${empty} holds no shard record`) });
    writeFileSync(join(empty, "shard-1-of-2.json"), '{"v":9}');
    expect(readShardRecords([empty])).toEqual({ error: expect.stringContaining("is not a version 1 shard record") });
  });

  it("names a missing shard and merges the others", () => {
    const merged = mergeShards([src(record({ k: 1, n: 3 })), src(record({ k: 3, n: 3 }))]);
    expect(merged.present).toEqual([1, 3]);
    expect(merged.missing).toEqual([2]);
    expect(merged.results).toEqual([...record({ k: 1, n: 3 }).results, ...record({ k: 3, n: 3 }).results].sort(byPlace));
  });

  it("refuses shards of different task files, judges, modes, prompts or models, naming the part and both shards", () => {
    const one = src(record({ k: 1, n: 2 }), "dirA");
    const refuse = (r: ShardRecord) => () => mergeShards([one, src(r, "dirB")]);
    expect(refuse(record({ k: 2, n: 2 }, { tasks: [...TASKS, task("g7")] }))).toThrow(
      "Cannot merge shard 1/2 and shard 2/2: they ran different task files (only the second has g7).",
    );
    expect(refuse(record({ k: 2, n: 2 }, { tasks: TASKS.map((t) => (t.id === "a1" ? task("a1", "say more") : t)) }))).toThrow(
      /different task files \(the same task ids with different content/,
    );
    expect(refuse({ ...record({ k: 2, n: 2 }), judge: 2 })).toThrow(/different judge versions \(3 and 2\)/);
    expect(refuse(record({ k: 2, n: 2 }, { tests: "visible" }))).toThrow(/different modes \(tests hidden and tests visible\)/);
    expect(refuse(record({ k: 2, n: 2 }, { prompts: "p2" }))).toThrow(/different prompts/);
    expect(refuse(record({ k: 2, n: 2 }, { models: [MODELS[0]] }))).toThrow(/different models \(oracle, null and oracle\)/);
    // The two sources are named under the message.
    expect(refuse(record({ k: 2, n: 2 }, { prompts: "p2" }))).toThrow(/- dirA\n {2}- dirB/);
    expect(() => mergeShards([one, src(record({ k: 1, n: 2 }), "again")])).toThrow("Shard 1/2 was given twice");
  });

  it("takes the latest record's split and leaves out an earlier split's records", () => {
    const old = { ...record({ k: 1, n: 4 }), finishedAt: "2020-01-01T00:00:00.000Z" };
    const merged = mergeShards([src(old), src(record({ k: 1, n: 2 })), src(record({ k: 2, n: 2 }))]);
    expect(merged.n).toBe(2);
    expect(merged.missing).toEqual([]);
    expect(merged.ignored.map((s) => s.record.shard)).toEqual([{ k: 1, n: 4 }]);
  });
});

function byPlace(x: TaskResult, y: TaskResult): number {
  const key = (r: TaskResult) => MODELS.findIndex((m) => m.label === r.model) * 100 + TASKS.findIndex((t) => t.id === r.task);
  return key(x) - key(y);
}
