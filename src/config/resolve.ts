import { basename, join, resolve } from "node:path";
import type { ConfigOverrideFlags } from "./run-flags.js";
import { ConfigError } from "../errors.js";
import { defaultPolicy, narrowPolicy } from "./command-rules.js";
import { CI_ENV_ALLOW } from "../secrets/env.js";
import { DEFAULT_SANDBOX_LIMITS } from "../exec/sandbox-walls.js";
import { execFileAllowed } from "../exec/exec-files.js";
import { DEFAULT_TOOL_CALLS_PER_TURN, LIMIT_DEFAULTS, MODEL_REPLY_DEFAULTS, PARALLEL_DEFAULT } from "./defaults.js";
import { parseDuration } from "./duration.js";
import type { CommandRules, ResolvedConfig, SandboxMode, UserConfig, UserLevelConfig } from "./schema.js";
import { withGateDefaults } from "./gate-defaults.js";
import { withApprovals } from "../workflow/approve.js";
import { DEFAULT_WORKFLOW } from "../workflow/default.js";
import { DEFAULT_INSTRUCTION_FILES } from "./defaults.js";

/** Values from command-line flags (picked from the one RunFlags type); undefined means "not given". */
export type ConfigFlags = Omit<ConfigOverrideFlags, "baseUrl" | "testCmd"> & {
  baseURL?: string;
  /** The model to use when neither a flag, YOLO_MODEL nor the config file names one (a replay's recorded model). */
  defaultModel?: string;
};

export interface ResolveConfigInput {
  root: string;
  /** The folder yolo was started in, inside `root` (default: `root`). */
  startDir?: string;
  /** The repository's top level when a nearer yolo.config.ts made `root` a package of it. */
  gitRoot?: string | null;
  /** The validated config file (or `{}` when there is none). */
  fileConfig: UserConfig;
  file: string | null;
  /**
   * The project's `.mcp.json` as trusted (null: none), which a run starts its MCP servers from; absent: read from
   * `root` when they start (a caller that checked no trust, such as a test).
   */
  mcpJson?: string | null;
  /** The environment to read; passed in so nothing deeper reads process.env. */
  env: Readonly<Record<string, string | undefined>>;
  flags?: ConfigFlags;
  /** The user-level config (`~/.config/yolo/config.ts`), which the repository's file may narrow but not widen. */
  userConfig?: { file: string | null; config: UserLevelConfig };
  /** How the front end that took `flags` names one in a problem (the CLI: `--max-turns`); default: its key. */
  flagName?: (flag: FlagKey) => string;
}

/** A flag that a problem can name: every ConfigFlags key but the replay's fallback model. */
export type FlagKey = Exclude<keyof ConfigFlags, "defaultModel">;

export const DEFAULT_API_KEY_ENV = "OPENAI_API_KEY";

const MIB = 1024 * 1024;

const DEFAULTS = {
  modelName: "gpt-4o-mini",
  maxRetries: 4,
  timeoutS: 120,
  maxFixAttempts: LIMIT_DEFAULTS.maxFixAttempts,
  agentsDir: "agents",
  summarizeAt: 0.7,
  dbPath: join(".yolo", "yolo.db"),
  artifacts: ".yolo",
  limits: {
    maxTurns: LIMIT_DEFAULTS.maxTurns,
    handoffReminders: 3,
    commandTimeoutS: 300,
    outputCapBytes: 16_000,
    readCapBytes: 64_000,
    maxSteps: LIMIT_DEFAULTS.maxSteps,
  },
} as const;

/**
 * The agents whose output waits for a human: the config's `approve`, and the comma-separated names in `YOLO_APPROVE`
 * (added, never removed: an editor's plan mode asks for pm's this way). A name the workflow does not have is
 * left out, as `withApprovals` does.
 */
function approvals(fileConfig: UserConfig, env: Readonly<Record<string, string | undefined>>): string[] {
  const extra = (env.YOLO_APPROVE ?? "").split(",").map((n) => n.trim());
  return [...new Set([...(fileConfig.approve ?? []), ...extra.filter(Boolean)])];
}

/**
 * Merges defaults < config file < environment < flags into one deep-frozen object.
 * Pure: reads only its arguments. Bad environment or flag values throw a ConfigError naming them.
 */
export function resolveConfig({
  root,
  startDir,
  gitRoot = null,
  fileConfig,
  file,
  mcpJson,
  env,
  flags = {},
  userConfig = { file: null, config: {} },
  flagName: name = (flag) => flag,
}: ResolveConfigInput): ResolvedConfig {
  const absRoot = resolve(root);
  const checked = checkOverrides(fileConfig, env, flags, name);
  const dbPath = nonEmpty(flags.db) ?? nonEmpty(env.YOLO_DB) ?? fileConfig.dbPath ?? DEFAULTS.dbPath;
  const database = resolveDatabase(flags, env, fileConfig, resolve(absRoot, dbPath));
  const artifacts = nonEmpty(env.YOLO_ARTIFACTS_DIR) ?? fileConfig.storage?.artifacts ?? DEFAULTS.artifacts;
  const config: ResolvedConfig = {
    root: absRoot,
    startDir: startDir ? resolve(startDir) : absRoot,
    ...(gitRoot ? { gitRoot: resolve(gitRoot) } : {}),
    configFile: file,
    ...(mcpJson !== undefined ? { mcpJson } : {}),
    model: modelSettings(fileConfig, env, flags, checked),
    maxFixAttempts: checked.flagMaxFix ?? checked.envMaxFix ?? fileConfig.maxFixAttempts ?? DEFAULTS.maxFixAttempts,
    workflow: withApprovals(structuredClone(fileConfig.workflow ?? DEFAULT_WORKFLOW), approvals(fileConfig, env)),
    approve: approvals(fileConfig, env),
    customWorkflow: fileConfig.workflow !== undefined,
    // Gate defaults are filled whether the caller passed schema input or output.
    gates: fileConfig.gates ? fileConfig.gates.map(withGateDefaults) : null,
    requireGate: flags.requireGate ?? fileConfig.requireGate ?? false,
    ...(fileConfig.knownFailures?.length ? { knownFailures: [...fileConfig.knownFailures] } : {}),
    ...(flags.knownFailure?.length ? { knownFailureFlags: [...flags.knownFailure] } : {}),
    gateScope: fileConfig.gateScope ?? "changed",
    agentsDir: resolve(absRoot, fileConfig.agentsDir ?? DEFAULTS.agentsDir),
    instructionFiles: [...(fileConfig.instructionFiles ?? DEFAULT_INSTRUCTION_FILES)],
    agentsDirConfigured: fileConfig.agentsDir !== undefined,
    dbPath: resolve(absRoot, dbPath),
    database,
    stateDir: resolve(absRoot, artifacts),
    branch: flags.branch ?? fileConfig.branch ?? false,
    parallel: checked.flagParallel ?? fileConfig.parallel ?? PARALLEL_DEFAULT,
    ...(checked.flagParallel !== undefined ? { parallelFromFlag: true } : {}),
    context: {
      summarizeAt: fileConfig.context?.summarizeAt ?? DEFAULTS.summarizeAt,
      contextWindows: { ...(fileConfig.context?.contextWindows ?? {}) },
      disabledTools: [...(fileConfig.context?.disabledTools ?? [])],
      rolePermissions: { ...(fileConfig.context?.rolePermissions ?? {}) },
    },
    userConfigFile: userConfig.file,
    ...commandSettings(userConfig, fileConfig, file, checked.envSandbox),
    hooks: {
      user: userConfig.config.hooks ?? null,
      project: fileConfig.hooks ?? null,
      trustProject: checked.trustProject === "1" || checked.trustProject === "true",
    },
    budget: {
      maxTokens: checked.flagMaxTokens ?? fileConfig.budget?.maxTokens ?? null,
      maxCost: checked.flagMaxCost ?? fileConfig.budget?.maxCost ?? null,
    },
    limits: limitSettings(fileConfig.limits ?? {}, checked),
    ...(fileConfig.mcpServers ? { mcpServers: structuredClone(fileConfig.mcpServers) } : {}),
    ...(userConfig.config.mcpServers ? { userMcpServers: structuredClone(userConfig.config.mcpServers) } : {}),
  };
  return deepFreeze(config);
}

type CheckedOverrides = ReturnType<typeof checkOverrides>;

// Parses every environment variable and flag that needs it, all at once, so one ConfigError lists every problem.
function checkOverrides(fileConfig: UserConfig, env: ResolveConfigInput["env"], flags: ConfigFlags, name: (flag: FlagKey) => string) {
  const problems: string[] = [];
  const fileLimits = fileConfig.limits ?? {};
  const checked = {
    envBaseURL: checkURL(nonEmpty(env.OPENAI_BASE_URL), "OPENAI_BASE_URL", problems),
    envMaxFix: parseIntVar(nonEmpty(env.YOLO_MAX_FIX_ATTEMPTS), "YOLO_MAX_FIX_ATTEMPTS", 0, 50, problems),
    flagBaseURL: checkURL(nonEmpty(flags.baseURL), name("baseURL"), problems),
    flagMaxFix: checkInt(flags.maxFixAttempts, name("maxFixAttempts"), 0, 50, problems),
    flagMaxTurns: checkInt(flags.maxTurns, name("maxTurns"), 1, Number.MAX_SAFE_INTEGER, problems),
    flagParallel: checkInt(flags.parallel, name("parallel"), 1, 16, problems),
    flagMaxSteps: checkInt(flags.maxSteps, name("maxSteps"), 1, Number.MAX_SAFE_INTEGER, problems),
    flagMaxTime: checkDuration(flags.maxTime, name("maxTime"), problems),
    fileMaxTime: checkDuration(fileLimits.maxTime, "limits.maxTime", problems),
    flagMaxTokens: checkInt(flags.maxTokens, name("maxTokens"), 1, Number.MAX_SAFE_INTEGER, problems),
    flagMaxCost: flags.maxCost !== undefined && flags.maxCost > 0 ? flags.maxCost : undefined,
    envSandbox: nonEmpty(env.YOLO_SANDBOX) as SandboxMode | undefined,
    trustProject: nonEmpty(env.YOLO_TRUST_PROJECT_HOOKS),
  };
  if (flags.maxCost !== undefined && !(Number.isFinite(flags.maxCost) && flags.maxCost > 0))
    problems.push(`${name("maxCost")}: must be a positive number, got ${String(flags.maxCost)}`);
  if ((checked.flagMaxCost ?? fileConfig.budget?.maxCost) !== undefined && !fileConfig.model?.price) {
    problems.push(`${name("maxCost")} / budget.maxCost: needs model.price ({ inputPerMillion, outputPerMillion }) in yolo.config.ts to count cost`);
  }
  const envDatabaseUrl = nonEmpty(env.YOLO_DATABASE_URL);
  if (envDatabaseUrl !== undefined && !/^postgres(ql)?:\/\//.test(envDatabaseUrl))
    problems.push("YOLO_DATABASE_URL: must be a postgres:// or postgresql:// URL");
  if (envDatabaseUrl !== undefined && nonEmpty(env.YOLO_DB) !== undefined)
    problems.push("YOLO_DB and YOLO_DATABASE_URL are both set: keep one (a SQLite file or a PostgreSQL database)");
  if (fileConfig.checkpointer?.postgres !== undefined && fileConfig.dbPath !== undefined)
    problems.push("yolo.config.ts sets both dbPath and checkpointer.postgres: keep one");
  if (checked.envSandbox !== undefined && !SANDBOX_RANK.has(checked.envSandbox))
    problems.push(`YOLO_SANDBOX: must be auto, required (or bwrap), or off, got "${checked.envSandbox}"`);
  const trustProject = checked.trustProject;
  if (trustProject !== undefined && !["1", "0", "true", "false"].includes(trustProject))
    problems.push(`YOLO_TRUST_PROJECT_HOOKS: must be 1 or 0, got "${trustProject}"`);
  if (problems.length) throw new ConfigError("Invalid settings in the environment or on the command line; fix them and run again:", problems);
  return checked;
}

// The model to call and how: flag < YOLO_MODEL < file for the name, and the key read from the configured variable.
function modelSettings(fileConfig: UserConfig, env: ResolveConfigInput["env"], flags: ConfigFlags, checked: CheckedOverrides): ResolvedConfig["model"] {
  const fileModel = fileConfig.model ?? {};
  const apiKeyEnv = fileModel.apiKeyEnv ?? DEFAULT_API_KEY_ENV;
  return {
    name: nonEmpty(flags.model) ?? nonEmpty(env.YOLO_MODEL) ?? fileModel.name ?? nonEmpty(flags.defaultModel) ?? DEFAULTS.modelName,
    baseURL: checked.flagBaseURL ?? checked.envBaseURL ?? fileModel.baseURL ?? null,
    apiKey: nonEmpty(env[apiKeyEnv]) ?? null,
    apiKeyEnv,
    temperature: fileModel.temperature ?? null,
    maxRetries: fileModel.maxRetries ?? DEFAULTS.maxRetries,
    timeoutS: fileModel.timeoutS ?? DEFAULTS.timeoutS,
    callDeadlineS: fileModel.callDeadlineS ?? MODEL_REPLY_DEFAULTS.callDeadlineS,
    maxReplyBytes: fileModel.maxReplyBytes ?? MODEL_REPLY_DEFAULTS.maxReplyBytes,
    // Only when configured: absent means Chat Completions and the server's default effort.
    ...(fileModel.api ? { api: fileModel.api } : {}),
    ...(fileModel.reasoningEffort ? { reasoningEffort: fileModel.reasoningEffort } : {}),
    price: fileModel.price ? { ...fileModel.price, currency: fileModel.price.currency ?? "USD" } : null,
  };
}

// The run's limits: flags over the file over the defaults; the sandbox's sizes from MB to bytes.
function limitSettings(fileLimits: NonNullable<UserConfig["limits"]>, checked: CheckedOverrides): ResolvedConfig["limits"] {
  return {
    maxTurns: checked.flagMaxTurns ?? fileLimits.maxTurns ?? DEFAULTS.limits.maxTurns,
    handoffReminders: fileLimits.handoffReminders ?? DEFAULTS.limits.handoffReminders,
    commandTimeoutS: fileLimits.commandTimeoutS ?? DEFAULTS.limits.commandTimeoutS,
    outputCapBytes: fileLimits.outputCapBytes ?? DEFAULTS.limits.outputCapBytes,
    readCapBytes: fileLimits.readCapBytes ?? DEFAULTS.limits.readCapBytes,
    maxSteps: checked.flagMaxSteps ?? fileLimits.maxSteps ?? DEFAULTS.limits.maxSteps,
    maxTimeMs: checked.flagMaxTime ?? checked.fileMaxTime ?? null,
    maxTurnsOverride: checked.flagMaxTurns ?? null,
    toolCallsPerTurn: fileLimits.toolCallsPerTurn ?? DEFAULT_TOOL_CALLS_PER_TURN,
    sandbox: {
      processes: fileLimits.sandboxProcesses ?? DEFAULT_SANDBOX_LIMITS.processes,
      memoryBytes: fileLimits.sandboxMemoryMB !== undefined ? fileLimits.sandboxMemoryMB * MIB : DEFAULT_SANDBOX_LIMITS.memoryBytes,
      tmpBytes: fileLimits.sandboxTmpMB !== undefined ? fileLimits.sandboxTmpMB * MIB : DEFAULT_SANDBOX_LIMITS.tmpBytes,
      unixSockets: fileLimits.sandboxUnixSockets ?? "deny",
    },
  };
}

/**
 * The database, most specific first: `--db <file>` (SQLite), then the environment (YOLO_DATABASE_URL for
 * PostgreSQL, YOLO_DB for a SQLite file), then the config file (checkpointer.postgres or dbPath), then the
 * default SQLite file. Setting both kinds in one layer is refused before this runs.
 */
function resolveDatabase(flags: ConfigFlags, env: ResolveConfigInput["env"], file: UserConfig, sqlitePath: string): ResolvedConfig["database"] {
  const sqlite = { kind: "sqlite" as const, path: sqlitePath };
  if (nonEmpty(flags.db)) return sqlite;
  const envUrl = nonEmpty(env.YOLO_DATABASE_URL);
  if (envUrl) return { kind: "postgres", url: envUrl };
  if (nonEmpty(env.YOLO_DB)) return sqlite;
  if (file.checkpointer?.postgres) return { kind: "postgres", url: file.checkpointer.postgres };
  return sqlite;
}

const SANDBOX_RANK = new Map<SandboxMode, number>([
  ["off", 0],
  ["auto", 1],
  ["bwrap", 2],
  ["required", 2],
]);

/**
 * Commands policy, environment allow-list and sandbox from both config files. The repository's file can only
 * narrow the user's: its allow-list applies on top of the user's, its denies add up, and it can make the sandbox
 * stricter (`bwrap`) but not turn it off. `YOLO_SANDBOX` stands for the user's setting.
 */
function commandSettings(
  user: { file: string | null; config: UserLevelConfig },
  repo: UserConfig,
  repoFile: string | null,
  envSandbox: SandboxMode | undefined,
): Pick<ResolvedConfig, "commands" | "env" | "sandbox" | "files"> {
  const userSource = user.file ?? "the user config";
  const repoSource = repoFile ? basename(repoFile) : "yolo.config.ts";
  const policy = narrowPolicy(narrowPolicy(defaultPolicy(), user.config.commands, userSource), repo.commands, repoSource);
  const roles: Record<string, { source: string; rules: CommandRules }[]> = {};
  for (const [source, byRole] of [
    [userSource, user.config.commands?.roles],
    [repoSource, repo.commands?.roles],
  ] as const) {
    for (const [role, rules] of Object.entries(byRole ?? {})) (roles[role] ??= []).push({ source: `${source}, role ${role}`, rules });
  }
  const userSandbox = envSandbox ?? user.config.sandbox ?? "auto";
  const repoSandbox = repo.sandbox ?? "off";
  return {
    commands: { policy, roles },
    env: {
      // In CI and out: a deny-list by name let `MYSQL_PWD` or `SLACK_WEBHOOK_URL` through.
      strict: true,
      allow: [...CI_ENV_ALLOW, ...(user.config.env?.allow ?? []), ...(repo.env?.allow ?? [])],
    },
    sandbox: SANDBOX_RANK.get(repoSandbox)! > SANDBOX_RANK.get(userSandbox)! ? repoSandbox : userSandbox,
    files: { allowExec: narrowAllowExec(user.config.files?.allowExec ?? [], repo.files?.allowExec) },
  };
}

/**
 * The exec files the file tools may write: the user's entries, and when the repository lists its own, only what both
 * cover (the deeper of two nested entries). A repository alone can allow nothing.
 */
function narrowAllowExec(user: string[], repo: string[] | undefined): string[] {
  if (repo === undefined) return [...user];
  const both = [...repo.filter((r) => execFileAllowed(r, user)), ...user.filter((u) => execFileAllowed(u, repo))];
  return [...new Set(both)];
}

const LOCAL_SERVERS = "Ollama http://localhost:11434/v1, LM Studio http://localhost:1234/v1, vLLM http://localhost:8000/v1";

/** True when yolo has a model to talk to (an API key or an endpoint); a replay needs neither. */
export function hasModel(cfg: ResolvedConfig): boolean {
  return Boolean(cfg.model.apiKey || cfg.model.baseURL);
}

/** Fails before any run starts when there is neither an API key nor a local server to talk to (a replay needs neither). */
export function assertModelConfigured(cfg: ResolvedConfig, opts: { replay?: boolean } = {}): void {
  if (opts.replay || cfg.model.apiKey || cfg.model.baseURL) return;
  const variable = cfg.model.apiKeyEnv;
  throw new ConfigError(
    `${variable} is not set and no OPENAI_BASE_URL is configured, so yolo has no model to talk to. ` +
      `Set ${variable} to your API key, or point OPENAI_BASE_URL (or model.baseURL in yolo.config.ts) ` +
      `at a local OpenAI-compatible server: ${LOCAL_SERVERS}.`,
    [],
    { fact: { kind: "no-model-endpoint", apiKeyEnv: variable, servers: LOCAL_SERVERS } },
  );
}

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

function checkURL(value: string | undefined, name: string, problems: string[]): string | undefined {
  if (value === undefined) return undefined;
  try {
    const url = new URL(value);
    if (url.protocol === "http:" || url.protocol === "https:") return value;
  } catch {
    // reported below
  }
  problems.push(`${name}: "${value}" is not an http(s) URL (for example http://localhost:11434/v1)`);
  return undefined;
}

function parseIntVar(value: string | undefined, name: string, min: number, max: number, problems: string[]): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) {
    problems.push(`${name}: must be ${describeRange(min, max)}, got "${value}"`);
    return undefined;
  }
  return checkInt(Number(value), name, min, max, problems);
}

function checkInt(value: number | undefined, name: string, min: number, max: number, problems: string[]): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isInteger(value) || value < min || value > max) {
    problems.push(`${name}: must be ${describeRange(min, max)}, got ${String(value)}`);
    return undefined;
  }
  return value;
}

// A duration from a flag or the config file (a number there is seconds), in milliseconds.
function checkDuration(value: string | number | undefined, name: string, problems: string[]): number | undefined {
  if (value === undefined) return undefined;
  const ms = parseDuration(String(value));
  if (ms === null) problems.push(`${name}: must be a duration such as 90s, 45m or 1h30m (a bare number is seconds), got "${String(value)}"`);
  return ms ?? undefined;
}

function describeRange(min: number, max: number): string {
  return max === Number.MAX_SAFE_INTEGER ? `a whole number of at least ${min}` : `a whole number from ${min} to ${max}`;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
