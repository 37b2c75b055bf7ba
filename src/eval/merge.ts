import { ConfigError } from "../errors.js";
import { shardLabel } from "./shard.js";
import type { ShardRecord, ShardSource } from "./shard-record.js";
import type { EvalModel } from "./run-eval.js";
import type { TaskResult, TestsMode } from "./types.js";

/** The shards merged into one eval's results, and the shards of its split that were not there. */
export interface MergedEval {
  name: string;
  tests: TestsMode;
  models: EvalModel[];
  /** Every task run of the shards present, model by model in the task file's order (as an unsharded eval reports). */
  results: TaskResult[];
  n: number;
  present: number[];
  missing: number[];
  /** Records left out because a later one split the eval another way (an earlier eval's, kept in the same place). */
  ignored: ShardSource[];
}

/**
 * One eval from its shards' records. The split is the latest record's (`n`); records of another `n` are an earlier
 * eval's and left out. The rest must have measured the same thing — task set, judge, tests' mode, prompts, models —
 * or the merge is refused naming the part and the two shards: a rate over tasks judged two ways means nothing.
 * Figures are then computed over the union of the results (intervals too), never averaged from the shards'.
 */
export function mergeShards(sources: ShardSource[]): MergedEval {
  if (!sources.length) throw new ConfigError("Nothing to merge: no shard record was found.");
  const latest = [...sources].sort((a, b) => (a.record.finishedAt < b.record.finishedAt ? 1 : -1))[0];
  const n = latest.record.shard.n;
  const used = sources.filter((s) => s.record.shard.n === n);
  const first = used[0];
  for (const other of used.slice(1)) {
    const part = differingPart(first.record, other.record);
    if (part) throw new ConfigError(`Cannot merge shard ${label(first)} and shard ${label(other)}: ${part}.`, [first.from, other.from]);
  }
  const byShard = new Map<number, ShardSource>();
  for (const s of used) {
    const twice = byShard.get(s.record.shard.k);
    if (twice) throw new ConfigError(`Shard ${label(s)} was given twice; give each shard's record once.`, [twice.from, s.from]);
    byShard.set(s.record.shard.k, s);
  }
  const { name, tests, models, taskIds } = first.record;
  const present = [...byShard.keys()].sort((a, b) => a - b);
  return {
    name,
    tests,
    models,
    results: ordered(
      used.flatMap((s) => s.record.results),
      models,
      taskIds,
    ),
    n,
    present,
    missing: Array.from({ length: n }, (_, i) => i + 1).filter((k) => !byShard.has(k)),
    ignored: sources.filter((s) => s.record.shard.n !== n),
  };
}

const label = (s: ShardSource) => shardLabel(s.record.shard);

// What makes two records of one split measure different things, worded; null when they agree.
function differingPart(a: ShardRecord, b: ShardRecord): string | null {
  if (a.name !== b.name) return `they belong to different evals ("${a.name}" and "${b.name}")`;
  if (a.tasks !== b.tasks) return `they ran different task files (${taskDifference(a.taskIds, b.taskIds)})`;
  if (a.judge !== b.judge) return `they were judged by different judge versions (${a.judge} and ${b.judge}): run every shard with the same yolo`;
  if (a.tests !== b.tests) return `they ran in different modes (tests ${a.tests} and tests ${b.tests}): rates from the two modes do not compare`;
  if (a.prompts !== b.prompts) return "they ran with different prompts (yolo's version or the agent files differ): run every shard from the same commit";
  const models = (r: ShardRecord) => r.models.map((m) => m.label).join(", ");
  if (models(a) !== models(b)) return `they measured different models (${models(a)} and ${models(b)})`;
  return null;
}

function taskDifference(a: string[], b: string[]): string {
  const onlyA = a.filter((id) => !b.includes(id));
  const onlyB = b.filter((id) => !a.includes(id));
  if (!onlyA.length && !onlyB.length) return "the same task ids with different content: a requirement, targets or guards were edited";
  const list = (ids: string[]) => ids.slice(0, 5).join(", ") + (ids.length > 5 ? ", …" : "");
  return [onlyA.length ? `only the first has ${list(onlyA)}` : "", onlyB.length ? `only the second has ${list(onlyB)}` : ""].filter(Boolean).join("; ");
}

// Model by model, each in the task file's order: the order an unsharded eval reports in.
function ordered(results: TaskResult[], models: EvalModel[], taskIds: string[]): TaskResult[] {
  const modelAt = new Map(models.map((m, i) => [m.label, i]));
  const taskAt = new Map(taskIds.map((id, i) => [id, i]));
  const key = (r: TaskResult) => (modelAt.get(r.model) ?? models.length) * (taskIds.length + 1) + (taskAt.get(r.task) ?? taskIds.length);
  return [...results].sort((x, y) => key(x) - key(y));
}
