import path from "node:path";
import { packageJsonText } from "./package-json.js";
import type { GateConfig } from "./schema.js";
import type { GateResult } from "../events/schema.js";
import { lastBytes } from "../exec/capped-output.js";
import { type GateLog, openGateLog } from "./gate-log.js";
import { commandEnv } from "../secrets/env.js";
import { runShell } from "../exec/run-shell.js";
import type { Sandbox } from "../exec/sandbox.js";
import { sandboxWithCaches } from "../exec/tool-caches.js";
import type { ExecSettings } from "../exec/settings.js";
import { readJUnitReports, reportGlobs } from "./junit-reports.js";
import { environmentFailure } from "./environment-failure.js";
import { openFreshCaches } from "./fresh-caches.js";
import { readTestOutput } from "./parse.js";
import type { FileOutcome, TestCase } from "./parsers/types.js";
import { planStructured, type StructuredReading } from "./structured/registry.js";
import { withoutReportNotes } from "./structured/report-folder.js";
import { reportingCommand, testCasesFromOutput } from "./test-cases.js";
import { workspaceTestCases } from "./workspace-cases.js";

export interface RunGatesOptions {
  /** Project root, absolute: the commands' working directory and the base of `logFile`. */
  root: string;
  /** Base environment of the commands; secret-looking variables are removed from it (see secrets/env.ts). */
  env: NodeJS.ProcessEnv;
  /** More variable names to remove, e.g. the configured API key variable. */
  secretEnvNames?: string[];
  /** Cap on the output kept in memory for parsing beyond the log file. */
  capBytes: number;
  attempt: number;
  /** The thread's baseline run: results say so (`baseline: true`). */
  baseline?: boolean;
  /** Absolute folder for `attempt-<n>-<name>.log`, created if missing. */
  logDir: string;
  signal?: AbortSignal;
  /** The environment allow-list and sandbox (the command policy is for the model's commands, not configured gates). */
  commands?: ExecSettings;
  /** Added to each log file's name (`attempt-1-test-changed.log`), so a narrowed run and its confirmation keep both logs. */
  logSuffix?: string;
  /** yolo's state folder: in the sandbox, each toolchain's cache is a folder of its `cache/` (src/exec/tool-caches.ts). */
  stateDir?: string;
  /** Called just before each gate's command starts, so a slow test suite shows as running. */
  onStart?(gate: GateConfig): void;
}

/** A gate's result with every test the runner reported (null: counts only), kept apart so events stay small. */
export interface GateRun {
  result: GateResult;
  tests: TestCase[] | null;
  /** The whole output of each run behind the result (the one that decides the baseline's tests first), to cut per test. */
  outputs?: string[];
  /** Files the runner summed up rather than listing their tests (see FileOutcome), when it did. */
  files?: FileOutcome[];
  /** Tests the runner counted as skipped or todo, when it said. */
  skippedCount?: number;
  /** The runner that printed the output or wrote the report (`vitest`, `jest`, `node:test`…), when yolo knows it. */
  runner?: string;
}

/** Bytes of the end of the output carried in the result (and so in events and state). */
const TAIL_BYTES = 2000;

/**
 * Runs the gates one after another and reports each, writing its full output to a log file.
 * All gates run even after a failure, so one report shows everything; an abort stops before the next gate.
 */
export async function runGates(gates: GateConfig[], opts: RunGatesOptions): Promise<GateResult[]> {
  return (await runGatesWithTests(gates, opts)).map((r) => r.result);
}

/** `runGates`, also returning each gate's per-test results (for the baseline and the comparison with it). */
export async function runGatesWithTests(gates: GateConfig[], opts: RunGatesOptions): Promise<GateRun[]> {
  const runs: GateRun[] = [];
  for (const gate of gates) {
    if (opts.signal?.aborted) break;
    opts.onStart?.(gate);
    runs.push(await runGate(gate, opts));
  }
  return runs;
}

/**
 * Environment yolo adds so runners list every test, not only the failing ones: pytest's `-rA` short summary, and
 * `--continue-on-collection-errors` so a file that does not import fails its own tests without stopping the others
 * (PYTEST_ADDOPTS is read by pytest however it is started). Appended to what the project already sets.
 */
export function reportingEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { ...env, PYTEST_ADDOPTS: [env.PYTEST_ADDOPTS, "-rA --continue-on-collection-errors"].filter(Boolean).join(" ") };
}

// One gate: run, keep the whole output for the log and the parser, summarise the rest.
async function runGate(gate: GateConfig, opts: RunGatesOptions): Promise<GateRun> {
  const startedAt = Date.now();
  const logPath = path.join(opts.logDir, gateLogName(gate.name, opts.baseline ? "baseline" : `attempt-${opts.attempt}`, opts.logSuffix));
  // Created while the command runs (see gate-log.ts); written when it has finished.
  const log = openGateLog(logPath, opts.logDir);
  let run: Awaited<ReturnType<typeof runShell>>;
  const { sandbox, cacheEnv } = withCaches(gate, opts);
  // The code under test was written by the model; it gets no more secrets than run_command does.
  const env = { ...reportingEnv(commandEnv(opts.env, opts.secretEnvNames ?? [], opts.commands?.envAllow ?? null)), ...gate.env, ...cacheEnv };
  // Bytecode, pytest's cache and Go's test results: never from a cache the agents could have written (fresh-caches.ts).
  const fresh = openFreshCaches(gate.command, env, sandbox);
  const freshEnv = { ...env, ...fresh.env };
  const scripts = packageScripts(opts.root);
  // A runner yolo recognizes writes a machine-readable report beside its usual output, into a folder of yolo's.
  const plan = planStructured(gate.command, scripts, freshEnv, fresh.sandbox);
  let structured: StructuredReading | null = null;
  try {
    run = await runShell(plan?.command ?? reportingCommand(gate.command, scripts), {
      cwd: opts.root,
      timeoutS: gate.timeoutS,
      env: { ...freshEnv, ...plan?.env },
      sandbox: plan?.folder.sandbox ?? fresh.sandbox,
      config: opts.commands?.config,
      capBytes: opts.capBytes,
      signal: opts.signal,
      keepFullOutput: true,
    });
    structured = plan?.read(opts.root) ?? null;
  } catch (error) {
    await log.discard();
    throw error;
  } finally {
    fresh.remove();
    plan?.folder.remove();
  }
  // The runner's note of where it wrote yolo's report ("JSON report written to …") is yolo's, not the project's output.
  const output = withoutReportNotes(run.fullOutput ?? run.output, plan?.folder);
  const read = readTestOutput(output);
  const { tests: parsed, files: parsedFiles, ...counts } = read.counts;
  counts.failures = counts.failures.map((name) => underRoot(name, opts.root));
  // A JUnit report the command wrote during this run is the most precise source; then a parser's own list; then the text.
  const globs = reportGlobs(gate.command, gate.reports);
  const reported = structured?.tests ?? (globs.length ? await readJUnitReports(opts.root, globs, startedAt - 2000) : null);
  // In a monorepo each test is named by its workspace or crate first (see workspace-cases.ts).
  const tests = reported ?? workspaceTestCases(output, opts.root) ?? parsed ?? testCasesFromOutput(output, opts.root);
  const files = structured ? (structured.files ?? null) : (parsedFiles ?? null);
  if (tests && counts.passedCount === null && counts.failedCount === null) {
    counts.passedCount = tests.filter((t) => t.status === "passed").length;
    counts.failedCount = tests.filter((t) => t.status === "failed").length;
  }
  const logFile = await writeLog(log, logPath, opts, gate, output, run);
  const result: GateResult = {
    name: gate.name,
    command: gate.command,
    required: gate.required,
    passed: run.exitCode === 0 && !run.timedOut,
    exitCode: run.exitCode,
    timedOut: run.timedOut,
    durationMs: run.durationMs,
    attempt: opts.attempt,
    ...withoutSkipped(counts),
    tail: lastBytes(output, TAIL_BYTES),
    logFile,
    reading: reported ? "structured" : tests || counts.passedCount !== null || counts.failedCount !== null ? "parsed" : "exit-code",
    ...(tests ? { tests: tests.length } : {}),
    ...(opts.baseline ? { baseline: true } : {}),
  };
  const environment = environmentFailure(result, output, opts.root, sandbox?.kind === "bwrap");
  if (environment) result.environment = environment;
  const runner = plan?.runner ?? read.runner;
  return { result, tests, outputs: [output], ...(files?.length ? { files } : {}), ...(runner ? { runner } : {}), ...skippedOf(counts) };
}

// The event carries passed and failed counts; the skipped count stays with the run (the judge reads it).
function withoutSkipped<T extends { skippedCount?: number | null }>(counts: T): Omit<T, "skippedCount"> {
  const { skippedCount: _, ...rest } = counts;
  return rest;
}

function skippedOf(counts: { skippedCount?: number | null }): { skippedCount?: number } {
  return typeof counts.skippedCount === "number" ? { skippedCount: counts.skippedCount } : {};
}

// In the sandbox the gate's toolchains write their caches under yolo's state folder, never the user's (tool-caches.ts).
function withCaches(gate: GateConfig, opts: RunGatesOptions): { sandbox: Sandbox | undefined; cacheEnv: Record<string, string> } {
  const { sandbox, env } = sandboxWithCaches(opts.commands?.sandbox, opts.root, opts.stateDir, gate.command);
  return { sandbox, cacheEnv: env };
}

// The log is a convenience for humans; failing to write it must not fail the gate, so it yields null instead.
async function writeLog(
  log: GateLog,
  file: string,
  opts: RunGatesOptions,
  gate: GateConfig,
  output: string,
  run: { exitCode: number | null; timedOut: boolean; durationMs: number },
): Promise<string | null> {
  const outcome = run.timedOut ? `timed out after ${gate.timeoutS}s` : `exit code ${run.exitCode ?? "none (killed)"}`;
  if (!(await log.write(`$ ${gate.command}\n${output}\n[${outcome}, ${run.durationMs} ms]\n`))) return null;
  // Relative to the root when inside it (the default `.yolo/`), so another working copy finds it in its own;
  // an artifacts folder elsewhere (possibly shared) keeps its absolute path.
  const rel = path.relative(opts.root, file);
  return rel.startsWith("..") || path.isAbsolute(rel) ? file : rel;
}

// package.json's scripts, to know a test script's runner; none when it is missing or broken. Read synchronously: a
// small file, and at every gate run a thread-pool round trip cost more than the read.
function packageScripts(root: string): Record<string, string> {
  try {
    const pkg = JSON.parse(packageJsonText(root)) as { scripts?: Record<string, unknown> } | null;
    return Object.fromEntries(Object.entries(pkg?.scripts ?? {}).filter((e): e is [string, string] => typeof e[1] === "string"));
  } catch {
    return {};
  }
}

/**
 * A failing test's name with the project root left out of any path in it (`test/add.test.js`, not
 * `/home/me/repo/test/add.test.js`: runners such as `node --test` name a failed file by its absolute path). The names
 * are what the output, reports and hooks show; the per-test records the baseline is judged by keep their own ids.
 */
export function underRoot(name: string, root: string): string {
  if (!root || root === "/" || !name.includes(root)) return name;
  return name.split(`file://${root}/`).join("").split(`${root}/`).join("");
}

/** A gate run's log file name in the thread's `gates/` folder: `baseline-test.log`, `attempt-2-test-changed.log`. */
export function gateLogName(gate: string, run: string, suffix = ""): string {
  return `${run}-${safeName(gate)}${suffix}.log`;
}

function safeName(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]+/g, "-");
}
