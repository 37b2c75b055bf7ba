import type { AgentDefinition } from "../agents/types.js";
import { assertModelConfigured } from "../config/resolve.js";
import type { ResolvedConfig } from "../config/schema.js";
import { defaultGates } from "../gates/detect.js";
import { toProviderError } from "../llm/errors.js";
import { createChatModel } from "../llm/model.js";
import { createLogger } from "../log/logger.js";
import type { EngineDeps } from "./deps.js";

/** The real dependencies of a run: OpenAI-compatible models, detected gates, a redacting file logger. */
export function createEngineDeps(input: {
  config: ResolvedConfig;
  agents: Map<string, AgentDefinition>;
  logFile: string;
  /** The environment commands start from (secrets are scrubbed per command). */
  env: NodeJS.ProcessEnv;
}): EngineDeps {
  const { config } = input;
  assertModelConfigured(config);
  const secrets = [config.model.apiKey].filter((s): s is string => !!s);
  const providerContext = { apiKeyEnv: config.model.apiKeyEnv, baseURL: config.model.baseURL };
  return {
    config,
    agents: input.agents,
    createModel: ({ name, temperature }) =>
      createChatModel({
        name,
        baseURL: config.model.baseURL,
        apiKey: config.model.apiKey,
        temperature,
        maxRetries: config.model.maxRetries,
        timeoutS: config.model.timeoutS,
      }),
    classifyError: (error, model) => toProviderError(error, { ...providerContext, model }),
    gates: config.gates ?? defaultGates(config.root),
    baseEnv: input.env,
    secretEnvNames: [config.model.apiKeyEnv],
    logger: createLogger({ file: input.logFile, level: "info", secrets }),
  };
}
