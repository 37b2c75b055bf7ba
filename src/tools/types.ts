import type { z } from "zod";
import type { CommandPolicy } from "./command-policy.js";
import type { ExecSettings } from "../exec/settings.js";

/** Tool names offered to the model. Public API: agents' `tools` allow-lists name these. */
export const TOOL_NAMES = ["read_file", "write_file", "edit_file", "list_files", "search_files", "run_command"] as const;
export type ToolName = (typeof TOOL_NAMES)[number];
/** A tool of an MCP server as the model sees it: `mcp__<server>__<tool>` (src/mcp). */
export type McpToolName = `mcp__${string}`;

/** What a tool needs from the run: all paths absolute, all limits resolved. */
export interface ToolContext {
  /** The project root, absolute and already resolved through symlinks. */
  root: string;
  commandTimeoutS: number;
  /** Cap on command output returned to the model (head and tail kept). */
  outputCapBytes: number;
  /** Cap on bytes a read_file returns. */
  readCapBytes: number;
  /** The environment commands start from; secrets are scrubbed from it before each command. */
  env: NodeJS.ProcessEnv;
  /** Extra secret values to keep out of command environments (e.g. the API key, whatever its variable is named). */
  secretEnvNames: string[];
  signal?: AbortSignal;
  /** How commands run; absent: the default deny list, the scrubbed environment, no sandbox. */
  commands?: CommandSettings;
  /**
   * yolo's state folder: in the sandbox, run_command's toolchains write their caches under its `cache/`, as gates do
   * (src/exec/tool-caches.ts). Absent: no cache folder is bound (the user's caches stay read-only in the sandbox).
   */
  stateDir?: string;
  /** Records what the run's log must show (a refused command). */
  log?: (entry: object, message: string) => void;
  /**
   * Reads a command's output as a test run's summary, for run_command's one-line summary (the run passes the
   * gates' parsers: tools sit below gates and do not import them). Absent: the summary has no counts.
   */
  readTestCounts?: (output: string) => { passedCount: number | null; failedCount: number | null };
}

/** The command policy, environment allow-list and sandbox in force for a run's commands (and gates). */
export interface CommandSettings extends ExecSettings {
  policy: CommandPolicy;
  /** Exec files (see exec/exec-files.ts) write_file and edit_file may write anyway, from the user config; absent: none. */
  allowExecFiles?: readonly string[];
}

/** A tool's answer. Refusals and failures are `ok: false` with a message the model can act on; tools never throw for bad input. */
export interface ToolOutcome {
  ok: boolean;
  /** What the model sees. */
  content: string;
  /** One line for progress output, e.g. `src/add.ts (+12 −3)` or `npm test → exit 1`. */
  summary: string;
  /** Project-relative paths this call created or modified. */
  filesChanged?: string[];
}

export interface ToolDef<S extends z.ZodObject = z.ZodObject> {
  name: ToolName | McpToolName;
  description: string;
  schema: S;
  /** The parameters as JSON Schema when they come from elsewhere (an MCP server); else derived from `schema`. */
  jsonSchema?: Record<string, unknown>;
  run(args: z.output<S>, ctx: ToolContext): Promise<ToolOutcome>;
}
