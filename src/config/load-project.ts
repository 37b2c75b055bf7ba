import { join } from "node:path";
import { ConfigError } from "../errors.js";
import type { FileConfig } from "./load.js";
import type { ValidationCache } from "./load-cache.js";
import { findUserConfigFile } from "./find.js";
import { findProject } from "./project-root.js";
import { type FlagKey, resolveConfig } from "./resolve.js";
import type { ConfigOverrideFlags } from "./run-flags.js";
import type { ResolvedConfig, UserLevelConfig } from "./schema.js";
import { type TrustedConfig, trustedConfig } from "./trust/config-trust.js";
import { userCacheDir } from "./user-cache-dir.js";
import { withApprovals } from "../workflow/approve.js";

/** Flags that override config, shared by run and resume (picked from the one RunFlags type). */
export type ConfigFlags = ConfigOverrideFlags & {
  /** Used when nothing else names the model: `--replay` passes the model its session was recorded with. */
  defaultModel?: string;
};

/**
 * Loads and resolves the configuration of the project around `cwd` once (defaults < yolo.config.ts < environment <
 * flags), the project's config run only as the bundle the user trusted. `flagName` words a problem with a flag the
 * way the front end's user typed it. A `testCmd` flag is not applied here (withTestCommand).
 */
export async function loadProjectConfig(cwd: string, flags: ConfigFlags, flagName: (flag: FlagKey) => string): Promise<ResolvedConfig> {
  const { root, startDir, gitRoot } = findProject(cwd);
  // The project's config runs only as the bundle the user trusted, never from the work tree (config-trust.ts). An
  // eval's task run takes the bundle the eval itself was started with (trusted there), never the checkout's.
  const pinned = pinnedBundle(process.env);
  const trusted = pinned ?? (await trustedConfig(root, process.env));
  const { file, config, userConfig } = await loadConfigFiles(root, trusted);
  return resolveConfig({
    root,
    startDir,
    gitRoot,
    userConfig,
    fileConfig: config,
    file,
    mcpJson: trusted.mcpJson,
    env: process.env,
    flagName,
    flags: {
      model: flags.model,
      baseURL: flags.baseUrl,
      maxFixAttempts: flags.maxFixAttempts,
      db: flags.db,
      maxTurns: flags.maxTurns,
      branch: flags.branch,
      maxTokens: flags.maxTokens,
      maxCost: flags.maxCost,
      maxSteps: flags.maxSteps,
      maxTime: flags.maxTime,
      requireGate: flags.requireGate,
      defaultModel: flags.defaultModel,
      parallel: flags.parallel,
      knownFailure: flags.knownFailure,
    },
  });
}

/**
 * The config with the approvals a thread keeps on every leg added (src/store/thread-approvals.ts): each adds its
 * human review node, as the config's `approve` does. A name whose node the workflow no longer has is left out.
 */
export function withKeptApprovals(config: ResolvedConfig, kept: readonly string[]): ResolvedConfig {
  const extra = kept.filter((name) => !config.approve.includes(name) && config.workflow.nodes[name] !== undefined);
  if (!extra.length) return config;
  return Object.freeze({ ...config, workflow: withApprovals(config.workflow, extra), approve: [...config.approve, ...extra] }) as ResolvedConfig;
}

/**
 * A test command given for the run (`--test-cmd`, checked non-empty by the front end): the run's gates become one
 * required gate, `test`, running it — the configured and detected ones are all set aside, as other CLIs' test flag does.
 */
export function withTestCommand(config: ResolvedConfig, command: string): ResolvedConfig {
  const timeoutS = config.gates?.find((g) => g.name === "test")?.timeoutS ?? 600;
  return Object.freeze({
    ...config,
    gates: Object.freeze([Object.freeze({ name: "test", command: command.trim(), required: true, timeoutS })]),
  }) as ResolvedConfig;
}

/**
 * The project's and the user's config files, loaded and validated. Without either (the common case) the loader is
 * not even imported: zod, the schemas and jiti cost more than the rest of a read-only command.
 */
async function loadConfigFiles(
  root: string,
  trusted: TrustedConfig,
): Promise<{ file: string | null; config: FileConfig; userConfig: { file: string | null; config: UserLevelConfig } }> {
  if (!trusted.bundle && !findUserConfigFile(process.env)) return { file: null, config: {}, userConfig: { file: null, config: {} } };
  const { loadConfigFile, loadUserConfig } = await import("./load.js");
  const options = { transpileCache: join(userCacheDir(process.env), "jiti"), validationCache: validationCache(process.env) };
  const { file, config } = trusted.bundle ? await loadConfigFile(root, { ...options, bundle: trusted.bundle }) : { file: null, config: {} };
  return { file, config, userConfig: await loadUserConfig(process.env, options) };
}

/**
 * `yolo eval` sets this for the runs of its tasks: the trusted bundle of the project config the eval was started with
 * and its `.mcp.json` (JSON, from evalConfigPin). A task's checkout is the project at an old commit, whose
 * yolo.config.ts and .mcp.json (anyone's, from history) must not run on the host: the task runs with the user's
 * trusted ones instead.
 */
export const EVAL_CONFIG_VAR = "YOLO_EVAL_CONFIG";

/** The value of EVAL_CONFIG_VAR for an eval started in `root`: what it trusts there (checked as any command would). */
export async function evalConfigPin(root: string): Promise<string> {
  const { bundle, mcpJson } = await trustedConfig(root, process.env);
  return JSON.stringify({ bundle, mcpJson });
}

function pinnedBundle(env: Readonly<Record<string, string | undefined>>): TrustedConfig | undefined {
  const value = env[EVAL_CONFIG_VAR];
  if (value === undefined) return undefined;
  try {
    const { bundle, mcpJson } = JSON.parse(value) as Pick<TrustedConfig, "bundle" | "mcpJson">;
    return { bundle, inputs: bundle ? [bundle.config] : [], mcpJson };
  } catch (cause) {
    throw new ConfigError(`${EVAL_CONFIG_VAR} is not what yolo eval sets (${(cause as Error).message}); unset it.`, [], { cause });
  }
}

/** Where this build remembers validated config and workflows (none when run from source: there is no build id). */
export function validationCache(env: Readonly<Record<string, string | undefined>>): ValidationCache | null {
  return YOLO_BUILD_ID ? { dir: join(userCacheDir(env), "validated"), build: YOLO_BUILD_ID } : null;
}

// The build's identity (a hash of its sources and lockfile), set by scripts/build.mjs; empty when run from source.
declare const __YOLO_BUILD_ID__: string | undefined;
const YOLO_BUILD_ID = typeof __YOLO_BUILD_ID__ === "string" ? __YOLO_BUILD_ID__ : "";
