import { isAbsolute, resolve } from "node:path";
import { mergeShards } from "../../eval/merge.js";
import { parseShardRecord, readShardRecords, type ShardSource } from "../../eval/shard-record.js";
import { ConfigError } from "../../errors.js";
import { repoIdentity } from "../../git/repo-identity.js";
import { type EvalOutputFlags, printEvalReport } from "../eval-output.js";
import { loadResolvedConfig } from "../load-config.js";

/** `yolo eval merge`'s flags as commander gives them. */
export interface EvalMergeFlags extends EvalOutputFlags {
  name?: string;
}

/**
 * `yolo eval merge [paths…]`: one report from the records the shards of an eval wrote — read from the given files
 * or folders, or with none from the shared PostgreSQL database. Figures are computed over the union of the results.
 * Exit 2 when the shards measured different things (refused, naming the part); 1 when a shard is missing (the report
 * covers those present and names the others) or, with --min-resolve, a model is below it; else 0.
 */
export async function evalMergeCommand(input: { cwd: string; paths: string[]; opts: EvalMergeFlags }): Promise<number> {
  const { opts, cwd } = input;
  if (opts.report !== undefined && opts.report !== "md") throw new ConfigError(`--report "${opts.report}": the one report format is md (Markdown).`);
  const all = input.paths.length ? fromPaths(input.paths.map((p) => (isAbsolute(p) ? p : resolve(cwd, p)))) : await fromDatabase(cwd, opts.name ?? null);
  const sources = opts.name === undefined ? all : all.filter((s) => s.record.name === opts.name);
  if (!sources.length) throw new ConfigError(`No shard record of the eval "${opts.name}" among the ${all.length} given; check --name.`);
  const merged = mergeShards(sources);
  for (const s of merged.ignored) {
    process.stderr.write(
      `yolo: left out ${s.from}: shard ${s.record.shard.k}/${s.record.shard.n} of an earlier split (the latest shard split the eval into ${merged.n})\n`,
    );
  }
  const code = printEvalReport(opts, { name: merged.name, tests: merged.tests, models: merged.models.map((m) => m.label), results: merged.results }, cwd);
  if (!merged.missing.length) return code;
  const shards = (ks: number[]) => ks.map((k) => `${k}/${merged.n}`).join(", ");
  process.stderr.write(
    `yolo: shard ${shards(merged.missing)} missing: this report covers shard ${shards(merged.present)} only (${merged.results.length} task run(s)). ` +
      `Run the missing shard(s) (yolo eval --tasks <file> --shard ${merged.missing[0]}/${merged.n}) and merge again.\n`,
  );
  return 1;
}

function fromPaths(paths: string[]): ShardSource[] {
  const read = readShardRecords(paths);
  if ("error" in read) throw new ConfigError(`Cannot merge: ${read.error}.`);
  return read;
}

// The shard records the project's PostgreSQL database holds for this repository (of the eval `name`, or its only one).
async function fromDatabase(cwd: string, name: string | null): Promise<ShardSource[]> {
  const config = await loadResolvedConfig(cwd, {});
  if (config.database.kind !== "postgres") {
    throw new ConfigError(
      "yolo eval merge without folders reads the shards' records from the shared PostgreSQL database, and this project's database is SQLite: " +
        "give the folders (or files) holding the records (shard-<k>-of-<n>.json, in .yolo/eval/runs/<name>/), or set YOLO_DATABASE_URL.",
    );
  }
  const { loadEvalShards } = await import("../../store/pg-eval-shards.js");
  const repo = await repoIdentity(config.root);
  const rows = await loadEvalShards(config.database.url, repo, name);
  const names = [...new Set(rows.map((r) => r.name))];
  if (!rows.length) throw new ConfigError(`The database holds no shard record of ${name === null ? "any eval" : `the eval "${name}"`} of ${repo}.`);
  if (names.length > 1) throw new ConfigError(`The database holds shards of ${names.length} evals of ${repo}; name one with --name:`, names);
  return rows.map((row) => {
    const from = `the database's shard ${row.k}/${row.n} of "${row.name}" (written by ${row.host ?? "an unknown host"} at ${row.writtenAt})`;
    const parsed = parseShardRecord(row.record);
    if ("error" in parsed) throw new ConfigError(`Cannot merge: ${from} ${parsed.error}.`);
    return { from, record: parsed.record };
  });
}
