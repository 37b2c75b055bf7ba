import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { EvalModel } from "./run-eval.js";
import type { Shard } from "./shard.js";
import { JUDGE_VERSION } from "./task-definition.js";
import { writeJsonAtomic } from "./task-file.js";
import type { EvalTask, TaskResult, TestsMode } from "./types.js";

/** The record's format version; a record of another version is refused, named. */
export const SHARD_RECORD_VERSION = 1;

/**
 * What one shard of an eval ran and found, written when it ends: to `shard-<k>-of-<n>.json` in its run folder, and
 * to the database when the eval's threads are in PostgreSQL. A merge reads only these: each says what it was measured
 * with (the task set, the judge's version, the tests' mode, the prompts, the models), so shards that measured different
 * things are refused rather than averaged, and its results are every task run of the shard, errors and not-run included.
 */
export interface ShardRecord {
  v: typeof SHARD_RECORD_VERSION;
  name: string;
  shard: Shard;
  /** A hash of the task set (by id, so the file's order does not count), and its ids in the file's order. */
  tasks: string;
  taskIds: string[];
  judge: number;
  tests: TestsMode;
  prompts: string;
  models: EvalModel[];
  host: string;
  finishedAt: string;
  results: TaskResult[];
}

/** A hash of the tasks themselves, sorted by id: the same task file reordered is the same set. */
export function taskSetHash(tasks: EvalTask[]): string {
  const sorted = [...tasks].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return createHash("sha256").update(JSON.stringify(sorted)).digest("hex").slice(0, 16);
}

/** The record of a shard that ran `tasks` × `models` and got `results`. */
export function shardRecord(input: {
  name: string;
  shard: Shard;
  tasks: EvalTask[];
  tests: TestsMode;
  prompts: string;
  models: EvalModel[];
  host: string;
  results: TaskResult[];
}): ShardRecord {
  return {
    v: SHARD_RECORD_VERSION,
    name: input.name,
    shard: input.shard,
    tasks: taskSetHash(input.tasks),
    taskIds: input.tasks.map((t) => t.id),
    judge: JUDGE_VERSION,
    tests: input.tests,
    prompts: input.prompts,
    models: input.models,
    host: input.host,
    finishedAt: new Date().toISOString(),
    results: input.results,
  };
}

const FILE = /^shard-(\d+)-of-(\d+)\.json$/;

/** The file a shard's record is kept in, in its run folder. */
export function shardFileName(shard: Shard): string {
  return `shard-${shard.k}-of-${shard.n}.json`;
}

export function writeShardRecord(runDir: string, record: ShardRecord): string {
  const file = join(runDir, shardFileName(record.shard));
  writeJsonAtomic(file, record);
  return file;
}

/** A record and where it was read from (a file, or the database's row), for messages. */
export interface ShardSource {
  from: string;
  record: ShardRecord;
}

/**
 * The shard records at `paths`: each a record file, or a folder holding them (`shard-<k>-of-<n>.json`: a run folder,
 * or a folder the CI's artifacts were downloaded into). A path with none, or a file that is no record, is an error.
 */
export function readShardRecords(paths: string[]): ShardSource[] | { error: string } {
  const out: ShardSource[] = [];
  for (const path of paths) {
    if (!existsSync(path)) return { error: `${path}: no such file or folder` };
    const files = statSync(path).isDirectory()
      ? readdirSync(path)
          .filter((f) => FILE.test(f))
          .sort()
          .map((f) => join(path, f))
      : [path];
    if (!files.length) return { error: `${path} holds no shard record (shard-<k>-of-<n>.json, written in the eval's run folder when a shard ends)` };
    for (const file of files) {
      const parsed = parseShardRecord(readFileSync(file, "utf8"));
      if ("error" in parsed) return { error: `${file} ${parsed.error}` };
      out.push({ from: file, record: parsed.record });
    }
  }
  return out;
}

/** A record from its JSON text (a file's, or a database row's), checked for the fields a merge reads. */
export function parseShardRecord(text: string): { record: ShardRecord } | { error: string } {
  let value: Partial<ShardRecord>;
  try {
    value = JSON.parse(text) as Partial<ShardRecord>;
  } catch (error) {
    return { error: `is not JSON (${(error as Error).message})` };
  }
  if (value?.v !== SHARD_RECORD_VERSION) return { error: `is not a version ${SHARD_RECORD_VERSION} shard record (written by another yolo?)` };
  const ok =
    typeof value.name === "string" &&
    Number.isInteger(value.shard?.k) &&
    Number.isInteger(value.shard?.n) &&
    Array.isArray(value.taskIds) &&
    Array.isArray(value.models) &&
    Array.isArray(value.results);
  return ok ? { record: value as ShardRecord } : { error: "is not a shard record: a field is missing" };
}
