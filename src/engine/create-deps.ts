import type { AgentDefinition } from "../agents/types.js";
import { assertModelConfigured } from "../config/resolve.js";
import type { ResolvedConfig } from "../config/schema.js";
import { toProviderError } from "../llm/errors.js";
import { createChatModel } from "../llm/model.js";
import { checkModelEndpoint } from "../llm/endpoint-probe.js";
import { createLogger } from "../log/logger.js";
import type { FetchLike } from "../llm/recording.js";
import type { ChangeReader, EngineDeps, WorkspaceHook } from "./deps.js";
import { createMcpHub } from "../mcp/hub.js";
import type { Sandbox } from "../exec/sandbox.js";
import type { McpRecordingSpec } from "../mcp/recording.js";
import { setUpHooks } from "../hooks/setup.js";
import { sayNotice, type NoticeWords } from "./notices.js";
import { runFacts, type RunFacts } from "./run/facts.js";
import { configProtection } from "./run/config-protection.js";
import type { ConfigProtection } from "../exec/settings.js";

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
  /** Secrets, sandbox and gates found already (src/engine/run/facts.ts), so a run that stated them does not look twice. */
  facts?: RunFacts;
}): EngineDeps {
  const { config } = input;
  assertModelConfigured(config, { replay: input.transport?.replay });
  const facts = input.facts ?? runFacts(config, input.env);
  const { secrets } = facts;
  const { sandbox, notices, status } = facts.sandbox;
  const protection = configProtection(config);
  const hookSetup = setUpHooks(config, input.env, () => ({ sandbox, config: protection }));
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
        callDeadlineS: config.model.callDeadlineS,
        maxReplyBytes: config.model.maxReplyBytes,
        api: config.model.api,
        reasoningEffort: config.model.reasoningEffort,
        fetch: input.transport?.fetch,
        onRetry,
      }),
    classifyError: (error, model) => toProviderError(error, { ...providerContext, model }),
    gates: facts.gates,
    baseEnv: input.env,
    secretEnvNames: [config.model.apiKeyEnv],
    logger,
    commands: {
      policy: config.commands.policy,
      envAllow: config.env.strict ? config.env.allow : null,
      sandbox,
      allowExecFiles: config.files.allowExec,
      config: protection,
    },
    notices: [...notices, ...facts.gateNotices, ...hookSetup.notices.map((fact) => sayNotice(fact, input.noticeWords))],
    ...(input.noticeWords ? { noticeWords: input.noticeWords } : {}),
    sandboxStatus: status,
    ...(hookSetup.hooks ? { hooks: hookSetup.hooks } : {}),
    ...(input.workspace ? { workspace: input.workspace } : {}),
    ...(input.changes ? { changes: input.changes } : {}),
    mcp: mcpHub(config, input, logger, { sandbox, config: protection }),
    // A replayed run has no endpoint; a recorded one records model calls, not this check.
    ...(input.transport?.replay ? {} : { checkEndpoint: (signal?: AbortSignal) => checkModelEndpoint(config.model, signal) }),
  };
}

/** The run's MCP servers (src/mcp): nothing starts until a run leg does, and only when servers are configured. */
function mcpHub(
  config: ResolvedConfig,
  input: { env: NodeJS.ProcessEnv; mcpRecording?: McpRecordingSpec },
  logger: EngineDeps["logger"],
  walls: { sandbox: Sandbox; config: ConfigProtection },
) {
  const envAllow = config.env.strict ? config.env.allow : null;
  return createMcpHub({
    config,
    // Stdio servers run under the run's sandbox, as commands do (`sandbox: "required"` covers them too).
    connect: { root: config.root, env: input.env, secretEnvNames: [config.model.apiKeyEnv], envAllow, ...walls },
    logger,
    recording: input.mcpRecording,
  });
}
