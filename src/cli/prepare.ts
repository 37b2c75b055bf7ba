import { realpathSync } from "node:fs";
import { resolve } from "node:path";
import type { AgentDefinition } from "../agents/types.js";
import { loadConfigFile, loadUserConfig } from "../config/load.js";
import type { ResolvedConfig } from "../config/schema.js";
import { resolveConfig } from "../config/resolve.js";
import { loadWorkflowAgents } from "../engine/workflow-agents.js";
import { ConfigError } from "../errors.js";

/** Flags that override config, shared by run and resume. */
export interface ConfigFlags {
  model?: string;
  baseUrl?: string;
  maxFixAttempts?: number;
  maxTurns?: number;
  db?: string;
  /** `--branch` / `--no-branch`; undefined: yolo.config.ts decides. */
  branch?: boolean;
  /** `--parallel N`: stories built at the same time (default pipeline). */
  parallel?: number;
  /** `--require-gate`: refuse a run without a gate (exit 2). */
  requireGate?: boolean;
  maxTokens?: number;
  maxCost?: number;
  maxSteps?: number;
  maxTime?: string;
  /** `--test-cmd`: this run's only gate, instead of the configured or detected ones. */
  testCmd?: string;
  /** Used when nothing else names the model: `--replay` passes the model its session was recorded with. */
  defaultModel?: string;
}

/** The project root: the directory yolo was started in (or -C), resolved through symlinks. */
export function projectRoot(cwd: string): string {
  try {
    return realpathSync(resolve(cwd));
  } catch {
    throw new ConfigError(`The directory ${cwd} does not exist.`);
  }
}

/** Loads and resolves the configuration once (defaults < yolo.config.ts < environment < flags). */
export async function loadResolvedConfig(cwd: string, flags: ConfigFlags = {}): Promise<ResolvedConfig> {
  const root = projectRoot(cwd);
  const { file, config } = await loadConfigFile(root);
  const userConfig = await loadUserConfig(process.env);
  const resolved = resolveConfig({
    root,
    userConfig,
    fileConfig: config,
    file,
    env: process.env,
    flags: { model: flags.model, baseURL: flags.baseUrl, maxFixAttempts: flags.maxFixAttempts, db: flags.db, maxTurns: flags.maxTurns, branch: flags.branch, maxTokens: flags.maxTokens, maxCost: flags.maxCost, maxSteps: flags.maxSteps, maxTime: flags.maxTime, requireGate: flags.requireGate, defaultModel: flags.defaultModel, parallel: flags.parallel },
  });
  return flags.testCmd === undefined ? resolved : withTestCommand(resolved, flags.testCmd);
}

/**
 * `--test-cmd <command>`: the run's gates become one required gate, `test`, running the command — the configured
 * (`gates` in yolo.config.ts) and detected ones are all set aside for this run, as other CLIs' test flag does.
 */
export function withTestCommand(config: ResolvedConfig, command: string): ResolvedConfig {
  if (!command.trim()) throw new ConfigError('--test-cmd is empty: give the command that runs the tests, e.g. --test-cmd "npm test".');
  const timeoutS = config.gates?.find((g) => g.name === "test")?.timeoutS ?? 600;
  return Object.freeze({ ...config, gates: Object.freeze([Object.freeze({ name: "test", command: command.trim(), required: true, timeoutS })]) }) as ResolvedConfig;
}

/** Loads the agents and validates the workflow; every problem is reported at once (exit 2). */
export function loadPipelineAgents(config: ResolvedConfig): Map<string, AgentDefinition> {
  return loadWorkflowAgents(config);
}
