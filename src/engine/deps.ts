import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { AgentDefinition } from "../agents/types.js";
import type { GateConfig, ResolvedConfig } from "../config/schema.js";

/** A minimal logger shape so the engine does not depend on pino's types. */
export interface EngineLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/** Everything the graph's nodes need, built once per process by the caller. */
export interface EngineDeps {
  config: ResolvedConfig;
  agents: Map<string, AgentDefinition>;
  /** Creates the chat model for an agent; injected so benchmarks can use an in-process model. */
  createModel: (spec: { name: string; temperature: number | null }) => BaseChatModel;
  /** Maps a provider failure to a typed error, or null when it is not one. */
  classifyError: (error: unknown, model: string) => Error | null;
  /** The gate commands tea's node runs (configured, or detected from the project). */
  gates: GateConfig[];
  /** The environment commands start from, before secrets are scrubbed. */
  baseEnv: NodeJS.ProcessEnv;
  /** Names of variables holding secrets beyond the ones recognised by name (e.g. a custom API key variable). */
  secretEnvNames: string[];
  logger: EngineLogger;
}
