import type { BaseMessage } from "@langchain/core/messages";
import type { ResolvedConfig } from "../config/schema.js";
import type { StateView, Turn } from "../state/types.js";
import type { Mode, PromptMessage } from "../prompt/compose.js";
import type { AnyRole, RoleRecord } from "../roles/types.js";
import type { McpToolName, ToolName } from "../tools/types.js";
import type { McpToolInfo } from "../mcp/hub.js";

/** What the node knows before the middleware runs. */
export interface MiddlewareInput {
  /** The requested mode; anything but `run`, `agent` or `chat` falls back to `chat`. */
  readonly requestedMode?: string;
  readonly root: string;
  /** The folder yolo was started in, when it is not `root` itself (a subfolder of the repository). */
  readonly startDir?: string;
  readonly node: string;
  readonly agentId: string;
  /** A built-in role by id, or the role looked up in src/roles/registry.ts. */
  readonly role: AnyRole | RoleRecord;
  readonly flags: readonly string[];
  /** The workflow's node names, in order. */
  readonly pipeline: readonly string[];
  readonly run: StateView;
  /** The run has completed (the post-run profile). */
  readonly runCompleted?: boolean;
  /** What the user typed in `agent` / `chat` mode. */
  readonly userInput?: string;
  /** `agent` / `chat`: the conversation before `userInput`. */
  readonly earlierTurns?: readonly Turn[];
  /** `mcp`: the agent's `mcp__<server>[__<tool>]` entries (from its `tools:`). */
  readonly agent: { readonly persona: string; readonly tools: readonly ToolName[]; readonly mcp?: readonly string[] };
  /** The tools the run's MCP servers offer (none when no server is configured). */
  readonly mcpCatalog?: readonly McpToolInfo[];
  readonly settings: Pick<ResolvedConfig, "maxFixAttempts" | "limits" | "context"> & Partial<Pick<ResolvedConfig, "instructionFiles">>;
  readonly modelName: string;
  /** The agent's transcript so far (empty before its first call). */
  readonly messages: readonly BaseMessage[];
}

/** The phase the router read from the run: which agent, which fix attempt, whether the run has completed. */
export interface Phase {
  node: string;
  fixAttempt: number;
  completed: boolean;
}

/** Older turns to replace with a model-written summary: `messages[start, end)`. */
export interface Compaction {
  start: number;
  end: number;
  /** Estimated tokens of the transcript before compaction, and the threshold it passed. */
  tokens: number;
  threshold: number;
}

/** The middleware state: the input plus what each step adds. Steps return a new object, never mutating their input. */
export interface MiddlewareState extends MiddlewareInput {
  /** context loader: a bounded summary of the repository, or null. */
  readonly projectSummary?: string | null;
  /** workflow router */
  readonly mode?: Mode;
  readonly phase?: Phase;
  readonly prompt?: readonly PromptMessage[];
  /** tool selector: the tools the model may call (besides `handoff`); the node binds only these. */
  readonly availableTools?: readonly (ToolName | McpToolName)[];
  /** summarization: what to summarize before the next call, or null when under the threshold. */
  readonly compaction?: Compaction | null;
  /** Warnings for the node to log (steps never log themselves). */
  readonly warnings: readonly string[];
}

/** One middleware step. */
export type Middleware = (state: MiddlewareState) => MiddlewareState;
