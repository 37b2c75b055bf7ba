import type { AgentDefinition } from "../agents/types.js";
import { assertModelConfigured } from "../config/resolve.js";
import { ConfigError } from "../errors.js";
import { probeBwrap, type Sandbox, type SandboxStatus } from "../exec/sandbox.js";
import type { ResolvedConfig } from "../config/schema.js";
import { defaultGates } from "../gates/detect.js";
import { toProviderError } from "../llm/errors.js";
import { createChatModel } from "../llm/model.js";
import { createLogger } from "../log/logger.js";
import { findProtectedPaths } from "../exec/protected-paths.js";
import { collectProjectSecrets } from "../secrets/project-files.js";
import { collectSecrets, registerSecrets } from "../secrets/scrub.js";
import type { FetchLike } from "../llm/recording.js";
import type { ChangeReader, EngineDeps, WorkspaceHook } from "./deps.js";
import { createMcpHub } from "../mcp/hub.js";
import type { McpRecordingSpec } from "../mcp/recording.js";
import { setUpHooks } from "../hooks/setup.js";
import { sayNotice, type NoticeWords } from "./notices.js";

/** The real dependencies of a run: OpenAI-compatible models, detected gates, a redacting file logger. */
export function createEngineDeps(input: {
  config: ResolvedConfig;
  agents: Map<string, AgentDefinition>;
  logFile: string;
  /** The environment commands start from (secrets are scrubbed per command). */
  env: NodeJS.ProcessEnv;
  /** The model client's HTTP transport: `--record` wraps fetch, `--replay` replaces it (and needs no key or URL). */
  transport?: { fetch: FetchLike; replay: boolean };
  /** Commits for `--branch`. */
  workspace?: WorkspaceHook;
  /** What the thread changed, from git (narrows monorepo gates). */
  changes?: ChangeReader;
  /** `--record` / `--replay`: MCP tool calls are stored beside the model's exchanges, or served from there. */
  mcpRecording?: McpRecordingSpec;
  /** The front end's words for notices that name its commands (`yolo hooks trust`); absent: neutral words. */
  noticeWords?: NoticeWords;
}): EngineDeps {
  const { config } = input;
  assertModelConfigured(config, { replay: input.transport?.replay });
  // Every secret value of the environment (and the API key) is kept out of logs, state, events and tool results.
  const secrets = [
    // A database password written in yolo.config.ts is as secret as one in the environment.
    ...collectSecrets(input.env, [config.model.apiKeyEnv], [config.model.apiKey ?? undefined, databasePassword(config)]),
    // The secret files the sandbox masks are the ones whose values are scrubbed: one walk finds both.
    ...collectProjectSecrets(findProtectedPaths(config.root)),
  ];
  registerSecrets(secrets);
  const { sandbox, notices, status } = chooseSandbox(config, input.env);
  const hookSetup = setUpHooks(config, input.env);
  const providerContext = { apiKeyEnv: config.model.apiKeyEnv, baseURL: config.model.baseURL };
  const logger = createLogger({ file: input.logFile, level: "info", secrets });
  return {
    config,
    agents: input.agents,
    createModel: ({ name, temperature, onRetry }) =>
      createChatModel({
        name,
        baseURL: config.model.baseURL,
        apiKey: config.model.apiKey,
        temperature,
        maxRetries: config.model.maxRetries,
        timeoutS: config.model.timeoutS,
        api: config.model.api,
        reasoningEffort: config.model.reasoningEffort,
        fetch: input.transport?.fetch,
        onRetry,
      }),
    classifyError: (error, model) => toProviderError(error, { ...providerContext, model }),
    gates: config.gates ?? defaultGates(config.root),
    baseEnv: input.env,
    secretEnvNames: [config.model.apiKeyEnv],
    logger,
    commands: { policy: config.commands.policy, envAllow: config.env.strict ? config.env.allow : null, sandbox, allowExecFiles: config.files.allowExec },
    notices: [...notices, ...hookSetup.notices.map((fact) => sayNotice(fact, input.noticeWords))],
    ...(input.noticeWords ? { noticeWords: input.noticeWords } : {}),
    sandboxStatus: status,
    ...(hookSetup.hooks ? { hooks: hookSetup.hooks } : {}),
    ...(input.workspace ? { workspace: input.workspace } : {}),
    ...(input.changes ? { changes: input.changes } : {}),
    mcp: mcpHub(config, input, logger),
  };
}

/** The run's MCP servers (src/mcp): nothing starts until a run leg does, and only when servers are configured. */
function mcpHub(config: ResolvedConfig, input: { env: NodeJS.ProcessEnv; mcpRecording?: McpRecordingSpec }, logger: EngineDeps["logger"]) {
  const envAllow = config.env.strict ? config.env.allow : null;
  return createMcpHub({
    config,
    connect: { root: config.root, env: input.env, secretEnvNames: [config.model.apiKeyEnv], envAllow },
    logger,
    recording: input.mcpRecording,
  });
}

function databasePassword(config: ResolvedConfig): string | undefined {
  if (config.database.kind !== "postgres") return undefined;
  try {
    return decodeURIComponent(new URL(config.database.url).password) || undefined;
  } catch {
    return undefined;
  }
}

/**
 * The sandbox commands and gates run in: bubblewrap when `sandbox` is "auto" and it works here, or "required" (old
 * name "bwrap", which fails the run before it starts when it does not); none for "off". Running unsandboxed under
 * "auto" is said once per run, with the reason and the one-line fix where there is one.
 */
function chooseSandbox(config: ResolvedConfig, env: NodeJS.ProcessEnv): { sandbox: Sandbox; notices: string[]; status: SandboxStatus } {
  if (config.sandbox === "off") return { sandbox: { kind: "none" }, notices: [], status: { kind: "none", reason: 'sandbox is "off" in the config' } };
  const probe = probeBwrap(env.PATH);
  if (probe.available) return { sandbox: { kind: "bwrap", binary: probe.binary }, notices: [], status: { kind: "bwrap" } };
  const fix = probe.fix ? ` Fix: ${probe.fix}.` : "";
  if (config.sandbox === "bwrap" || config.sandbox === "required") {
    throw new ConfigError(
      `sandbox is "${config.sandbox}" but ${probe.reason}.${fix || " Install bubblewrap (apt-get install bubblewrap)."} Or set sandbox: "auto" to run commands without it.`,
    );
  }
  return {
    sandbox: { kind: "none" },
    notices: [
      `Commands and gates run without a sandbox: ${probe.reason}.${fix} Install bubblewrap to confine them to the project with no network, or set sandbox: "off" in ~/.config/yolo/config.ts to silence this.`,
    ],
    status: { kind: "none", reason: probe.reason, ...(probe.fix ? { fix: probe.fix } : {}) },
  };
}
