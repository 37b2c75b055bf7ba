import fs from "node:fs/promises";
import path from "node:path";
import type { GateConfig } from "../config/schema.js";
import type { GateResult } from "../events/schema.js";
import { lastBytes } from "../tools/capped-output.js";
import { commandEnv } from "../tools/env.js";
import { runShell } from "../tools/exec.js";
import type { CommandSettings } from "../tools/types.js";
import { parseTestOutput } from "./parse.js";

export interface RunGatesOptions {
  /** Project root, absolute: the commands' working directory and the base of `logFile`. */
  root: string;
  /** Base environment of the commands; secret-looking variables are removed from it (see tools/env.ts). */
  env: NodeJS.ProcessEnv;
  /** More variable names to remove, e.g. the configured API key variable. */
  secretEnvNames?: string[];
  /** Cap on the output kept in memory for parsing beyond the log file. */
  capBytes: number;
  attempt: number;
  /** Absolute folder for `attempt-<n>-<name>.log`, created if missing. */
  logDir: string;
  signal?: AbortSignal;
  /** The environment allow-list and sandbox (the command policy is for the model's commands, not configured gates). */
  commands?: Pick<CommandSettings, "envAllow" | "sandbox">;
  /** Called just before each gate's command starts, so a slow test suite shows as running. */
  onStart?(gate: GateConfig): void;
}

/** Bytes of the end of the output carried in the result (and so in events and state). */
const TAIL_BYTES = 2000;

/**
 * Runs the gates one after another and reports each, writing its full output to a log file.
 * All gates run even after a failure, so one report shows everything; an abort stops before the next gate.
 */
export async function runGates(gates: GateConfig[], opts: RunGatesOptions): Promise<GateResult[]> {
  const results: GateResult[] = [];
  for (const gate of gates) {
    if (opts.signal?.aborted) break;
    opts.onStart?.(gate);
    results.push(await runGate(gate, opts));
  }
  return results;
}

// One gate: run, keep the whole output for the log and the parser, summarise the rest.
async function runGate(gate: GateConfig, opts: RunGatesOptions): Promise<GateResult> {
  const run = await runShell(gate.command, {
    cwd: opts.root,
    timeoutS: gate.timeoutS,
    // The code under test was written by the model; it gets no more secrets than run_command does.
    env: commandEnv(opts.env, opts.secretEnvNames ?? [], opts.commands?.envAllow ?? null),
    sandbox: opts.commands?.sandbox,
    capBytes: opts.capBytes,
    signal: opts.signal,
    keepFullOutput: true,
  });
  const output = run.fullOutput ?? run.output;
  const counts = parseTestOutput(output);
  const logFile = await writeLog(opts, gate, output, run);
  return {
    name: gate.name,
    command: gate.command,
    required: gate.required,
    passed: run.exitCode === 0 && !run.timedOut,
    exitCode: run.exitCode,
    timedOut: run.timedOut,
    durationMs: run.durationMs,
    attempt: opts.attempt,
    ...counts,
    tail: lastBytes(output, TAIL_BYTES),
    logFile,
  };
}

// The log is a convenience for humans; failing to write it must not fail the gate, so it yields null instead.
async function writeLog(
  opts: RunGatesOptions,
  gate: GateConfig,
  output: string,
  run: { exitCode: number | null; timedOut: boolean; durationMs: number },
): Promise<string | null> {
  const file = path.join(opts.logDir, `attempt-${opts.attempt}-${safeName(gate.name)}.log`);
  const outcome = run.timedOut ? `timed out after ${gate.timeoutS}s` : `exit code ${run.exitCode ?? "none (killed)"}`;
  try {
    await fs.mkdir(opts.logDir, { recursive: true });
    await fs.writeFile(file, `$ ${gate.command}\n${output}\n[${outcome}, ${run.durationMs} ms]\n`);
    // Relative to the root when inside it (the default `.yolo/`), so another working copy finds it in its own;
    // an artifacts folder elsewhere (possibly shared) keeps its absolute path.
    const rel = path.relative(opts.root, file);
    return rel.startsWith("..") || path.isAbsolute(rel) ? file : rel;
  } catch {
    return null;
  }
}

function safeName(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]+/g, "-");
}
