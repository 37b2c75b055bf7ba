import { existsSync, statSync } from "node:fs";
import { hostname } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import type { ResolvedConfig } from "../../config/schema.js";
import { clearRuns, missingSessions, recordedModels, type SessionMode, sessionArgs, writeSessionManifest } from "../../eval/record.js";
import { type EvalModel, runEval } from "../../eval/run-eval.js";
import { inShard, type Shard, WHOLE } from "../../eval/shard.js";
import { shardRecord } from "../../eval/shard-record.js";
import { evalDir, suiteSettings } from "../../eval/settings.js";
import { EvalProgress } from "../../eval/progress.js";
import { promptsVersion } from "../../eval/task-definition.js";
import { readTasks } from "../../eval/task-file.js";
import type { EvalTask, TaskResult, TestsMode } from "../../eval/types.js";
import { ConfigError } from "../../errors.js";
import { EVAL_PROJECT_VAR } from "../../exec/sandbox-walls.js";
import { packageRoot } from "../../package-root.js";
import { ensureArtifactsDir } from "../../store/state-dir.js";
import { liveTable, plainProgress, wantsLiveTable } from "../eval-live.js";
import { printEvalReport } from "../eval-output.js";
import { keepShardRecord } from "../eval-shard.js";
import { EVAL_CONFIG_VAR, evalConfigPin } from "../load-config.js";
import type { EvalFlags } from "./eval.js";

/**
 * `yolo eval --tasks <file>`: every task with every model as its own `yolo run` thread, judged by yolo; prints the
 * results, and exits 1 only when `--min-resolve` is given and a model's rate is below it (0 otherwise: it ran).
 */
export async function runTasksCommand(
  config: ResolvedConfig,
  opts: EvalFlags & { tasks: string; name: string; shardOf?: Shard },
  cwd: string,
): Promise<number> {
  const shard = opts.shardOf ?? WHOLE;
  if (opts.evalMaxCost !== undefined && !config.model.price) {
    throw new ConfigError(
      "--eval-max-cost needs model.price ({ inputPerMillion, outputPerMillion }) in yolo.config.ts to count cost; or budget the eval with --eval-max-tokens.",
    );
  }
  const tasks = readTasks(isAbsolute(opts.tasks) ? opts.tasks : resolve(cwd, opts.tasks));
  ensureArtifactsDir(config.stateDir);
  const controller = new AbortController();
  const stop = () => controller.abort();
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  const { settings, notices } = suiteSettings(config, process.env, controller.signal);
  for (const n of notices) process.stderr.write(`yolo: ${n}\n`);
  const given: EvalModel[] | null = opts.model?.length ? opts.model.map((m) => ({ label: m, name: m })) : null;
  const session = sessionMode(config, opts, cwd);
  const models = session?.kind === "replay" ? replayModels(session.dir, tasks, given, shard) : (given ?? [{ label: config.model.name, name: null }]);
  // A replay runs in its own folder, emptied first: it always runs again (see clearRuns).
  const runDir = join(evalDir(config), "runs", session?.kind === "replay" ? `${opts.name}.replay` : opts.name);
  if (session?.kind === "replay") await clearRuns(config.root, runDir);
  if (session?.kind === "record") writeSessionManifest(session.dir, models);
  const { progress, live } = progressOf(config, opts, models, (model) => tasks.filter((t) => inShard(shard, t.id, model)).length);
  const configPin = await evalConfigPin(config.root);
  const prompts = promptsVersion(config.agentsDir);
  let results: TaskResult[];
  try {
    results = await runEval({
      tasks,
      models,
      shard,
      parallel: opts.parallel ?? 1,
      budget: { maxCost: opts.evalMaxCost ?? null, maxTokens: opts.evalMaxTokens ?? null },
      ctx: {
        root: config.root,
        runDir,
        child: {
          ...childSpec(opts, configPin, config.root, settings.commands.sandbox.kind),
          taskFlags: (label: string, id: string) => sessionArgs(session, label, id),
        },
        suite: settings,
        setting: { prompts, config: configPin, tests: testsMode(opts) },
        onNote: (task, model, note) => process.stderr.write(`yolo: ${model} ${task.id}: ${note}\n`),
        price: config.model.price,
        signal: controller.signal,
      },
      onStart: (_task, model) => {
        progress.started(model.label);
        live.started();
      },
      onResult: (r) => {
        progress.finished(r);
        live.finished(r);
      },
    });
  } finally {
    live.close();
    process.off("SIGINT", stop);
    process.off("SIGTERM", stop);
  }
  if (controller.signal.aborted) {
    process.stderr.write("yolo: eval interrupted; run the same command again to continue (judged tasks are kept, unfinished threads are resumed)\n");
    return 130;
  }
  await keepShardRecord(config, runDir, shardRecord({ name: opts.name, shard, tasks, tests: testsMode(opts), prompts, models, host: hostname(), results }));
  return printEvalReport(
    opts,
    {
      name: opts.name,
      tests: testsMode(opts),
      models: models.map((m) => m.label),
      results,
    },
    cwd,
  );
}

// The running count of the task runs (a shard's share per model) and where it shows: a live table on a terminal, a
// line per task otherwise; --json keeps stdout for the one JSON object, so the lines go to stderr.
function progressOf(config: ResolvedConfig, opts: EvalFlags, models: EvalModel[], runsOf: (model: string) => number) {
  const progress = new EvalProgress(
    models.map((m) => m.label),
    runsOf,
    config.model.price !== null && config.model.price !== undefined,
  );
  const live = opts.json
    ? plainProgress(progress, process.stderr)
    : wantsLiveTable(!!process.stdout.isTTY, process.env)
      ? liveTable(progress, process.stdout)
      : plainProgress(progress, process.stdout);
  return { progress, live };
}

// The tests' mode an eval runs in: hidden unless --visible-tests.
function testsMode(opts: EvalFlags): TestsMode {
  return opts.visibleTests ? "visible" : "hidden";
}

/**
 * The models a replay runs: the ones given with `--model`, else the recording's own. Every task of every model must
 * have its session; a missing one is refused before anything runs (a replay cannot ask a model instead).
 */
function replayModels(dir: string, tasks: EvalTask[], given: EvalModel[] | null, shard: Shard): EvalModel[] {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    throw new ConfigError(`--replay ${dir}: no such folder. Record an eval first with --record <folder>, then replay that folder.`);
  }
  const recorded = given ? { models: given } : recordedModels(dir);
  if ("error" in recorded) throw new ConfigError(`--replay ${dir}: ${recorded.error}; name the recorded models with --model.`);
  const missing = missingSessions(dir, tasks, recorded.models, (t, m) => inShard(shard, t.id, m.label));
  if (missing.length) {
    throw new ConfigError(
      `--replay ${dir} has no recorded session for ${missing.length} task run(s); nothing ran. Record them (--record) or drop them from the task file:`,
      missing.slice(0, 20),
    );
  }
  return recorded.models;
}

// `--record [dir]` (default: the eval's folder under .yolo/eval/sessions/) or `--replay <dir>`, as absolute folders.
function sessionMode(config: ResolvedConfig, opts: EvalFlags & { name: string }, cwd: string): SessionMode | null {
  const file = (f: string) => (isAbsolute(f) ? f : resolve(cwd, f));
  if (opts.replay !== undefined) return { kind: "replay", dir: file(opts.replay) };
  if (opts.record === undefined || opts.record === false) return null;
  return { kind: "record", dir: typeof opts.record === "string" ? file(opts.record) : join(evalDir(config), "sessions", opts.name) };
}

// The flags every task's run and resume get: the endpoint, per-task budgets and fix attempts.
function passThrough(opts: EvalFlags): string[] {
  return [
    ...(opts.baseUrl ? ["--base-url", opts.baseUrl] : []),
    ...(opts.maxCost !== undefined ? ["--max-cost", String(opts.maxCost)] : []),
    ...(opts.maxTokens !== undefined ? ["--max-tokens", String(opts.maxTokens)] : []),
    ...(opts.maxFixAttempts !== undefined ? ["--max-fix-attempts", String(opts.maxFixAttempts)] : []),
  ];
}

// This very yolo as a child per task leg: an unattended run printing JSON events (the requirement after `--`, so one
// starting with a dash stays words), or the resume of a thread a killed eval left unfinished.
// Every leg runs with the trusted bundle of the config this eval was started with (EVAL_CONFIG_VAR), never one in the
// task's checkout.
// Where the eval itself has a working sandbox, every task run must have one too (`required`): a run that fell back to
// none would let its agents write the events and records the judge reads and trusts (judge-reuse.ts). It ends with
// exit 2 instead, an error the next eval runs again.
export function childSpec(opts: EvalFlags, configPin: string, root: string, sandbox: string) {
  const flags = passThrough(opts);
  const model = (m: string | null) => (m ? ["--model", m] : []);
  const required = sandbox === "bwrap" ? { YOLO_SANDBOX: "required" } : {};
  return {
    self: [process.execPath, join(packageRoot(), "bin", "yolo.js")],
    // The project checkout holds the later history and the hidden tests: the task runs' sandbox shows it empty.
    env: { ...process.env, ...required, [EVAL_CONFIG_VAR]: configPin, [EVAL_PROJECT_VAR]: root },
    runArgs: (m: string | null, requirement: string) => ["run", "--ci", "--json", ...model(m), ...flags, "--", requirement],
    resumeArgs: (m: string | null, thread: string) => ["resume", thread, "--ci", "--json", ...model(m), ...flags],
  };
}
