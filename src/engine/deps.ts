import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { AgentDefinition } from "../agents/types.js";
import type { Usage } from "../events/schema.js";
import type { GateConfig, ResolvedConfig } from "../config/schema.js";
import type { SandboxStatus } from "../exec/sandbox.js";
import type { CommandSettings } from "../tools/types.js";
import type { McpHub } from "../mcp/hub.js";
import type { HookRunner } from "../hooks/hooks.js";
import type { ChangeReader } from "../git/changed-files.js";
import type { NoticeWords } from "./notices.js";

/** Reads what a thread changed from version control (declared beside its git implementation). */
export type { ChangeReader };

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
  createModel: (spec: { name: string; temperature: number | null; onRetry?: (reason: string, count: { retry: number; of: number }) => void }) => BaseChatModel;
  /** Maps a provider failure to a typed error, or null when it is not one. */
  classifyError: (error: unknown, model: string) => Error | null;
  /** The gate commands tea's node runs (configured, or detected from the project). */
  gates: GateConfig[];
  /** The environment commands start from, before secrets are scrubbed. */
  baseEnv: NodeJS.ProcessEnv;
  /** Names of variables holding secrets beyond the ones recognised by name (e.g. a custom API key variable). */
  secretEnvNames: string[];
  logger: EngineLogger;
  /** Command policy, CI environment allow-list and sandbox; absent: the default deny list, no sandbox. */
  commands?: CommandSettings;
  /** Said once at the start of each run (a `warning` event), e.g. that commands run without a sandbox. */
  notices?: string[];
  /** How the front end words notices that name its commands (the no-gate warning); absent: the engine's neutral words. */
  noticeWords?: NoticeWords;
  /** The user's hooks (and the repository's, when trusted); absent: none configured. */
  hooks?: HookRunner;
  /** The sandbox in force, said in `run.started` (without one: why, and the fix). */
  sandboxStatus?: SandboxStatus;
  /** Version control around the run (`--branch`); absent: the engine never touches git. */
  workspace?: WorkspaceHook;
  /** The run's MCP servers: started when a leg starts, stopped when it ends; absent: no MCP tools. */
  mcp?: McpHub;
  /** What the thread changed, read from git (for narrowing monorepo gates); absent: not known, gates run whole. */
  changes?: ChangeReader;
  /**
   * Called once before each model call of an agent that shares the thread's limits with runs beside it (stories in
   * parallel): may throw a LimitError (their turns together), and returns their usage not in state yet, which the
   * budget counts too.
   */
  sharedLimits?: () => Usage;
  /**
   * Checks the model endpoint answers, accepts the key and serves the model (one GET /models), throwing the error a
   * model call would; run before waiting for a gate baseline that no model call has overlapped. Returns a warning to
   * say (a model the list leaves out but the server answers for), or null. Absent: not checked.
   */
  checkEndpoint?: (signal?: AbortSignal) => Promise<string | null>;
}

/** What the engine asks of version control. Implemented in src/git; injected so the engine stays testable. */
export interface WorkspaceHook {
  /**
   * Called when a dev iteration has handed off: records its change (a commit on the thread's branch).
   * Must be safe to call again for the same iteration (a node re-run after a crash). Returns the commit, or null.
   */
  afterDev(iteration: { threadId: string; node: string; attempt: number; stories: string[]; summary: string }): Promise<{ commit: string | null }>;
}
