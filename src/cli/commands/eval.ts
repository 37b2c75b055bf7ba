import { basename, isAbsolute, join, resolve } from "node:path";
import { buildTasksFromHistory } from "../../eval/build.js";
import { keepParsesIn, saveParses } from "../../eval/import-graph.js";
import { buildMutants } from "../../eval/mutate.js";
import { evalDir, suiteSettings } from "../../eval/settings.js";
import { toJsonl } from "../../eval/task-file.js";
import type { DiscardedCandidate, EvalTask } from "../../eval/types.js";
import { userCacheDir } from "../../config/user-cache-dir.js";
import { ConfigError } from "../../errors.js";
import { ensureArtifactsDir } from "../../store/state-dir.js";
import { parseShardFlag } from "../eval-shard.js";
import { loadResolvedConfig } from "../load-config.js";
import { writeOutputFile } from "../write-output.js";

/** `yolo eval`'s flags as commander gives them. */
export interface EvalFlags {
  fromHistory?: string;
  mutate?: number;
  canaries?: number;
  evalMaxCost?: number;
  evalMaxTokens?: number;
  max?: number;
  out?: string;
  name?: string;
  tasks?: string;
  json?: boolean;
  model?: string[];
  baseUrl?: string;
  parallel?: number;
  maxCost?: number;
  maxTokens?: number;
  maxFixAttempts?: number;
  report?: string;
  junit?: string;
  minResolve?: number;
  /** `--record` alone (true) or `--record <dir>`. */
  record?: string | boolean;
  replay?: string;
  /** `--visible-tests`: the agents see the commit's test changes (the default hides them until judging). */
  visibleTests?: boolean;
  /** `--shard <k>/<n>`: run only this process's share of the tasks × models. */
  shard?: string;
}

const NAME = /^[A-Za-z0-9._-]+$/;

/** `yolo eval --from-history <range>`: builds tasks from the project's history (no model); `--tasks <file>`: runs them. */
export async function evalCommand(input: { cwd: string; opts: EvalFlags }): Promise<number> {
  const { opts } = input;
  const modes = [opts.fromHistory !== undefined, opts.mutate !== undefined, opts.tasks !== undefined].filter(Boolean).length;
  if (modes === 0 && opts.canaries === undefined) {
    throw new ConfigError(
      "yolo eval needs tasks: build them with --from-history <rev-range>, --mutate <n> or --canaries <k>, then run the file written with --tasks <file>.",
    );
  }
  if (opts.tasks !== undefined && opts.canaries !== undefined) {
    throw new ConfigError(
      "--canaries builds canary tasks into a task file and --tasks runs one: build with --canaries <k> (alone or beside --from-history or --mutate), then run the file.",
    );
  }
  if (modes > 1) {
    throw new ConfigError("--from-history and --mutate build a task file and --tasks runs one: give one of them (build first, review the file, then run it).");
  }
  if (opts.report !== undefined && opts.report !== "md") throw new ConfigError(`--report "${opts.report}": the one report format is md (Markdown).`);
  if (opts.minResolve !== undefined && !(opts.minResolve >= 0 && opts.minResolve <= 1)) {
    throw new ConfigError(`--min-resolve ${opts.minResolve}: give a rate between 0 and 1 (0.6 for 60%).`);
  }
  if (opts.tasks === undefined && (opts.evalMaxCost !== undefined || opts.evalMaxTokens !== undefined)) {
    throw new ConfigError("--eval-max-cost and --eval-max-tokens budget the running of tasks: give them with --tasks <file>.");
  }
  if ((opts.record !== undefined || opts.replay !== undefined) && opts.tasks === undefined) {
    throw new ConfigError("--record and --replay go with --tasks: they keep or replay the model sessions of the task runs.");
  }
  if (opts.record !== undefined && opts.replay !== undefined) {
    throw new ConfigError("--record and --replay exclude each other: record an eval against a model, then replay its folder.");
  }
  if (opts.shard !== undefined && opts.tasks === undefined) {
    throw new ConfigError("--shard splits the running of tasks between processes: give it with --tasks <file> (building a task file is not split).");
  }
  const shardOf = opts.shard === undefined ? undefined : parseShardFlag(opts.shard);
  const name = opts.name ?? defaultName(opts);
  if (!NAME.test(name)) throw new ConfigError(`--name "${name}" may use only letters, digits, ".", "_" and "-".`);
  const config = await loadResolvedConfig(input.cwd, { baseUrl: opts.baseUrl });
  // The build's parses of the project's files serve the judge of a later run of its tasks (import-graph.ts).
  keepParsesIn(join(evalDir(config), "parses.json"), join(userCacheDir(process.env), "eval"));
  try {
    if (opts.tasks === undefined) return await buildCommand(config, { ...opts, name }, input.cwd);
    return await (await import("./eval-run.js")).runTasksCommand(config, { ...opts, tasks: opts.tasks as string, name, shardOf }, input.cwd);
  } finally {
    saveParses();
  }
}

/**
 * The eval's name when `--name` is not given: a task file's base name when running one (`mutants.jsonl` runs under
 * `mutants`, so two task files never share a run folder), else what is built.
 */
function defaultName(opts: EvalFlags): string {
  if (opts.tasks !== undefined) {
    const stem = basename(opts.tasks)
      .replace(/\.jsonl$/, "")
      .replace(/[^A-Za-z0-9._-]+/g, "_");
    return stem && stem !== "." && stem !== ".." ? stem : "tasks";
  }
  return opts.mutate !== undefined ? "mutants" : opts.fromHistory === undefined && opts.canaries !== undefined ? "canaries" : "history";
}

type Config = Awaited<ReturnType<typeof loadResolvedConfig>>;

// Builds the task set, prints each candidate's fate, writes the tasks and the discards beside them.
async function buildCommand(config: Config, opts: EvalFlags & { name: string }, cwd: string): Promise<number> {
  const file = opts.out ? (isAbsolute(opts.out) ? opts.out : resolve(cwd, opts.out)) : join(evalDir(config), `${opts.name}.jsonl`);
  // yolo's artifacts folder ignores itself in git (a `.gitignore` of `*`): scratch worktrees and logs stay out of status.
  ensureArtifactsDir(config.stateDir);
  const { settings, notices } = suiteSettings(config, process.env);
  for (const n of notices) process.stderr.write(`yolo: ${n}\n`);
  const say = (line: string) => (opts.json ? process.stderr : process.stdout).write(`${line}\n`);
  const common = { root: config.root, gates: config.gates, workDir: join(evalDir(config), "work", opts.name), suite: settings };
  const built = { tasks: [] as EvalTask[], discarded: [] as DiscardedCandidate[] };
  const add = (more: typeof built) => {
    built.tasks.push(...more.tasks);
    built.discarded.push(...more.discarded);
  };
  if (opts.mutate !== undefined) {
    add(
      await buildMutants({
        ...common,
        count: opts.mutate,
        onCandidate: (site, outcome) => say("reason" in outcome ? `discarded mutant ${site.description}: ${outcome.reason}` : taskLine(outcome)),
      }),
    );
  } else if (opts.fromHistory !== undefined) {
    add(
      await buildTasksFromHistory({
        ...common,
        range: opts.fromHistory,
        max: opts.max ?? null,
        onCandidate: (c, outcome) => say("reason" in outcome ? `discarded ${c.commit.slice(0, 12)} ${c.subject}: ${outcome.reason}` : taskLine(outcome)),
      }),
    );
  }
  if (opts.canaries !== undefined) {
    const onCandidate = (site: { description: string }, outcome: EvalTask | DiscardedCandidate) =>
      say("reason" in outcome ? `discarded canary ${site.description}: ${outcome.reason}` : taskLine(outcome));
    add(await (await import("../../eval/canaries.js")).buildCanaries({ ...common, count: opts.canaries, onCandidate }));
  }
  const { tasks, discarded } = built;
  writeOutputFile(file, toJsonl(tasks), "--out");
  const discardFile = file.replace(/(\.jsonl)?$/, ".discarded.jsonl");
  writeOutputFile(discardFile, toJsonl(discarded), "--out");
  if (opts.json) process.stdout.write(`${JSON.stringify({ file, discardedFile: discardFile, tasks, discarded })}\n`);
  else say(summaryLine(tasks, discarded, file, discardFile));
  return 0;
}

function taskLine(t: EvalTask): string {
  const what = t.canary ? `canary ${t.canary.description}` : t.mutation ? `mutant ${t.mutation.description}` : t.requirement.split("\n")[0];
  return `task ${t.id} ${what}: ${t.targets.length} target(s), ${t.guards.length} guard(s)`;
}

function summaryLine(tasks: EvalTask[], discarded: DiscardedCandidate[], file: string, discardFile: string): string {
  const none = tasks.length ? "" : " (no commit of the range changes source and tests with a test going from failing to passing)";
  return `${tasks.length} task(s) written to ${file}${none}; ${discarded.length} candidate(s) discarded, with the reasons, in ${discardFile}`;
}
