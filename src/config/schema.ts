import { z } from "zod";
import type { CommandPolicy } from "./command-rules.js";
import { workflowSchema, type Workflow } from "../workflow/schema.js";
import { mcpServersSchema, type McpServers } from "./mcp-servers.js";
import { hooksConfigSchema, type HooksConfig } from "./hooks-schema.js";
import type { SandboxLimits } from "../exec/sandbox-walls.js";
import { type GateConfig, gateSchema } from "../gates/schema.js";

const patterns = z.array(z.string().trim().min(1));
const commandRules = z.strictObject({
  /** Argv patterns a command must match (see docs/security.md); absent: any command not denied. */
  allow: patterns.optional(),
  /** Argv patterns that refuse a command, added to the default deny list. */
  deny: patterns.optional(),
});

/** Commands the model may run, the environment they get under CI, and the sandbox; in both config files. */
const commandSettings = {
  commands: commandRules
    .extend({
      /** Further rules for one agent (its id) or role, e.g. `{ tea: { allow: ["npm test"] } }`. */
      roles: z.record(z.string(), commandRules).optional(),
    })
    .optional(),
  env: z
    .strictObject({
      /** Variables (names, `*` allowed) commands keep besides PATH, HOME, LANG, toolchain settings…; secret-looking names never pass. */
      allow: patterns.optional(),
    })
    .optional(),
  /**
   * Run commands and gates in bubblewrap: "auto" when it works here (default), "required" always (exit 2 before the
   * run starts without it; "bwrap" is its older name and means the same), "off".
   */
  sandbox: z.enum(["auto", "required", "bwrap", "off"]).optional(),
  /**
   * Files that run code outside yolo (`.github/workflows/ci.yml`, `.vscode/tasks.json`, …) that write_file and
   * edit_file may write anyway: paths or folders. The repository's list can only narrow the user's.
   */
  files: z.strictObject({ allowExec: patterns.optional() }).optional(),
};

/** The user-level config (`~/.config/yolo/config.ts`): only what a repository must not be able to loosen. */
export const userConfigSchema = z.strictObject({
  ...commandSettings,
  /** Commands run around tool calls and steps (docs/mcp-and-hooks.md, "Hooks"); the user's own, so they always run. */
  hooks: hooksConfigSchema.optional(),
  /** MCP servers of every project (the user's own, so trusted; an editor passes its servers to `yolo acp`'s runs here). */
  mcpServers: mcpServersSchema.optional(),
});
export type UserLevelConfig = z.input<typeof userConfigSchema>;
export type SandboxMode = "auto" | "required" | "bwrap" | "off";
export type CommandRules = z.output<typeof commandRules>;

/** The schema of `yolo.config.ts`. Unknown keys are errors, so a typo never silently does nothing. */
export const configSchema = z.strictObject({
  model: z
    .strictObject({
      name: z.string().min(1).optional(),
      baseURL: z.string().url().optional(),
      /** Name of the environment variable holding the API key (default OPENAI_API_KEY). */
      apiKeyEnv: z.string().min(1).optional(),
      temperature: z.number().min(0).max(2).optional(),
      maxRetries: z.number().int().min(0).max(20).optional(),
      timeoutS: z.number().positive().optional(),
      /** Seconds from a model request to its answer's last byte (default 1800: a slow local model may take many minutes for a long answer): a stream that trickles forever ends here. */
      callDeadlineS: z.number().positive().optional(),
      /** Largest answer on the wire in bytes (default 64 MB): a stream that floods ends here. */
      maxReplyBytes: z.number().int().min(1024).optional(),
      /** "chat" (default): Chat Completions; "responses": the OpenAI Responses API, needed for Responses-only models. */
      api: z.enum(["chat", "responses"]).optional(),
      /** Reasoning models (o-series, gpt-5): how hard to think, sent as `reasoning_effort`. */
      reasoningEffort: z.enum(["minimal", "low", "medium", "high"]).optional(),
      /** Price per million tokens, for the cost line of `yolo report`; without it reports give tokens only. */
      price: z
        .strictObject({
          inputPerMillion: z.number().min(0),
          outputPerMillion: z.number().min(0),
          currency: z.string().min(1).optional(),
        })
        .optional(),
    })
    .optional(),
  maxFixAttempts: z.number().int().min(0).max(50).optional(),
  /** The graph to run; the default five-agent pipeline when absent (see src/workflow/default.ts). */
  workflow: workflowSchema.optional(),
  /** Agent nodes whose output a human approves, edits or rejects before the run moves on. */
  approve: z.array(z.string().min(1)).optional(),
  gates: z.array(gateSchema).optional(),
  /** Refuse to run (exit 2, before anything runs) when the project has no gate: nothing configured or detected. */
  requireGate: z.boolean().optional(),
  /** Known failures of every gate (see a gate's `knownFailures`); `--known-failure` adds to them for one thread. */
  knownFailures: z.array(z.string().trim().min(1)).optional(),
  /**
   * Monorepos: "changed" (default) runs a detected gate on the workspaces, Go modules or crates the change touches
   * (and their dependents), confirmed on the whole suite before it passes; "all" always runs the whole suite.
   */
  gateScope: z.enum(["changed", "all"]).optional(),
  agentsDir: z.string().min(1).optional(),
  /**
   * Instruction file names read in each folder from the repository root down to where yolo started (the first present
   * wins in a folder; `AGENTS.override.md` before all). Replaces the default `["AGENTS.md", "CLAUDE.md", "GEMINI.md"]`.
   */
  instructionFiles: z
    .array(
      z
        .string()
        .min(1)
        .regex(/^[^\\/]+$/, "a file name, not a path"),
    )
    .optional(),
  dbPath: z.string().min(1).optional(),
  /** Where checkpoints and the thread index live: the SQLite file (`dbPath`, the default) or a shared PostgreSQL database. */
  checkpointer: z
    .strictObject({
      /** `postgres://user:password@host:5432/db`; YOLO_DATABASE_URL overrides it. */
      postgres: z.string().regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// URL"),
    })
    .optional(),
  storage: z
    .strictObject({
      /** The artifacts folder: run logs, transcripts, gate outputs (default `.yolo`; relative to the project root). */
      artifacts: z.string().min(1).optional(),
    })
    .optional(),
  /** Work on a new branch `yolo/<thread>` and commit after each dev iteration (the `--branch` flag). */
  branch: z.boolean().optional(),
  /**
   * Stories built at the same time, each by its own dev in its own git worktree (the `--parallel` flag;
   * docs/stories.md). 1: one dev builds all stories, one after another.
   */
  parallel: z.number().int().min(1).max(16).optional(),
  /** What each agent sees: summarization threshold, context windows, role tool permissions, disabled tools. */
  context: z
    .strictObject({
      /** Fraction of the model's context window at which older turns are summarized (default 0.7). */
      summarizeAt: z.number().gt(0).max(1).optional(),
      /** Context window in tokens per model name (defaults are built in for common models). */
      contextWindows: z.record(z.string(), z.number().int().min(1024)).optional(),
      /** Tools no agent may call. */
      disabledTools: z.array(z.string().min(1)).optional(),
      /** Tools an agent role (its id) may call at most; agents without an entry are not narrowed. */
      rolePermissions: z.record(z.string(), z.array(z.string().min(1))).optional(),
    })
    .optional(),
  /** Stop the run cleanly (exit 7, resumable) when it reaches one of these, resumes included. */
  budget: z
    .strictObject({
      maxTokens: z.number().int().positive().optional(),
      maxCost: z.number().positive().optional(),
    })
    .optional(),
  ...commandSettings,
  /** The repository's hooks (docs/mcp-and-hooks.md, "Hooks"): they run only once the user trusted this exact set (`yolo hooks trust`). */
  hooks: hooksConfigSchema.optional(),
  limits: z
    .strictObject({
      maxTurns: z.number().int().positive().optional(),
      handoffReminders: z.number().int().min(0).max(10).optional(),
      commandTimeoutS: z.number().positive().optional(),
      outputCapBytes: z.number().int().min(1024).optional(),
      readCapBytes: z.number().int().min(1024).optional(),
      /** Graph steps (node runs) per thread, resumes included; reaching it stops the run (exit 4, resumable). */
      maxSteps: z.number().int().positive().optional(),
      /** Active wall time per thread, resumes included: a duration ("45m", "1h30m") or seconds (exit 8, resumable). */
      maxTime: z.union([z.string().min(1), z.number().positive()]).optional(),
      /** Tool calls run from one model reply; the rest are answered with an error, not run (default 32). */
      toolCallsPerTurn: z.number().int().positive().optional(),
      /** Processes a sandboxed command may have at once: its pids cgroup (v1, where yolo can make one), and RLIMIT_NPROC (not applied to root). Default 1024. */
      sandboxProcesses: z.number().int().min(16).optional(),
      /** Memory of a sandboxed command in MiB: all its processes together in its memory cgroup (v1, where yolo can make one), and each one's RLIMIT_DATA. Default 8192 (a whole test run, every worker together). */
      sandboxMemoryMB: z.number().int().min(64).optional(),
      /** Size of the sandbox's RAM-backed /tmp in MiB. Default 1024. */
      sandboxTmpMB: z.number().int().min(16).optional(),
      /** AF_UNIX sockets in the sandbox: "deny" (default; a seccomp filter, x86_64 and arm64) or "allow" (tests that need them). */
      sandboxUnixSockets: z.enum(["deny", "allow"]).optional(),
    })
    .optional(),
  /** MCP servers whose tools agents may use (docs/mcp-and-hooks.md, "MCP servers"); merged over the project's `.mcp.json`. */
  mcpServers: mcpServersSchema.optional(),
});

export type UserConfig = z.input<typeof configSchema>;
export type { GateConfig };
export { gateSchema };

/** Everything resolved: defaults < config file < YOLO_* environment < flags. Frozen and passed down. */
export interface ResolvedConfig {
  root: string;
  /**
   * The folder yolo was started in (inside `root`; equal to it when started at the root): the agents' context, and
   * where a reader of nested instruction files (AGENTS.md) stops. Optional so hand-made configs in tests still type.
   */
  startDir?: string;
  /** The repository's top level, when a yolo.config.ts nearer than it made `root` a package of it. */
  gitRoot?: string;
  configFile: string | null;
  model: {
    name: string;
    baseURL: string | null;
    apiKey: string | null;
    apiKeyEnv: string;
    temperature: number | null;
    maxRetries: number;
    timeoutS: number;
    /** From a model request to its answer's last byte (model.callDeadlineS). */
    callDeadlineS: number;
    /** Largest answer on the wire, in bytes (model.maxReplyBytes). */
    maxReplyBytes: number;
    /** Which OpenAI API the client speaks (model.api). */
    api?: "chat" | "responses";
    /** null: the server's default effort. */
    reasoningEffort?: string | null;
    /** Price per million tokens (null: not configured, reports show tokens only). */
    price: { inputPerMillion: number; outputPerMillion: number; currency: string } | null;
  };
  maxFixAttempts: number;
  /** The workflow to run, with `approve` already applied (human review nodes inserted). */
  workflow: Workflow;
  /** `approve` as configured, for validation messages. */
  approve: string[];
  /** true when the workflow came from the config file rather than the default. */
  customWorkflow: boolean;
  /** null: not configured, detect (`npm test` when package.json has a real test script). */
  gates: GateConfig[] | null;
  /** `requireGate` / `--require-gate`: a run with no gate exits 2 before anything runs. */
  requireGate: boolean;
  /** Known failures of every gate, as configured (`knownFailures`); each gate's own are on the gate. */
  knownFailures?: string[];
  /** `--known-failure` patterns given to this leg of the thread (the thread keeps them for its later legs). */
  knownFailureFlags?: string[];
  /** `gateScope`: narrow monorepo gates to what a change touches ("changed", the default when absent) or not ("all"). */
  gateScope?: "changed" | "all";
  agentsDir: string;
  /** `instructionFiles`: the instruction file names read in each folder (src/prompt/instructions.ts). */
  instructionFiles: readonly string[];
  /** Whether yolo.config.ts sets `agentsDir`: the default folder is read only when it holds yolo agents (src/agents/loader.ts). */
  agentsDirConfigured?: boolean;
  /** The SQLite file (used when `database.kind` is "sqlite"). */
  dbPath: string;
  /** Where checkpoints and the thread index live. */
  database: { kind: "sqlite"; path: string } | { kind: "postgres"; url: string };
  /** The artifacts folder: `logs/`, `threads/<id>/` (transcripts, gate outputs). Default `<root>/.yolo`. */
  stateDir: string;
  /** Commit each dev iteration on `yolo/<thread>`. */
  branch: boolean;
  /** Stories built at the same time (default pipeline only); 1: one dev for all stories. */
  parallel: number;
  /** Whether `--parallel` was given: a resumed thread keeps the value it started with unless it was. */
  parallelFromFlag?: boolean;
  context: {
    summarizeAt: number;
    contextWindows: Record<string, number>;
    disabledTools: string[];
    rolePermissions: Record<string, string[]>;
  };
  /** The user-level config file that was loaded, or null. */
  userConfigFile: string | null;
  commands: {
    /** Default deny list + the user's rules + the repository's: denies add up, allow-lists all apply. */
    policy: CommandPolicy;
    /** Rules per agent id or role, from both files, narrowing `policy` further. */
    roles: Record<string, { source: string; rules: CommandRules }[]>;
  };
  /** Commands get only the variables `allow` matches (strict, in CI and out; false only in tests' own configs). */
  env: { strict: boolean; allow: string[] };
  /** The stronger of the user's and the repository's setting (a repository cannot turn the sandbox off). */
  sandbox: SandboxMode;
  /** Hooks from the user's config and the repository's; whether the repository's run is decided at start (src/hooks/setup.ts). */
  hooks: {
    user: HooksConfig | null;
    project: HooksConfig | null;
    /** `YOLO_TRUST_PROJECT_HOOKS=1`: the repository's hooks run without a recorded trust (a pipeline on the user's own repository). */
    trustProject: boolean;
  };
  /** Exec files the file tools may write (`files.allowExec`): the user's list, narrowed by the repository's. */
  files: { allowExec: string[] };
  /** null: no budget. Prompt + completion tokens, and cost in model.price's currency. */
  budget: { maxTokens: number | null; maxCost: number | null };
  limits: {
    maxTurns: number;
    handoffReminders: number;
    commandTimeoutS: number;
    outputCapBytes: number;
    readCapBytes: number;
    /** Graph steps (node runs) per thread, counted across resumes. */
    maxSteps: number;
    /** Active wall time per thread in milliseconds, counted across resumes; null: none. */
    maxTimeMs: number | null;
    /** `--max-turns` from the command line: wins over an agent's own maxTurns. */
    maxTurnsOverride: number | null;
    /** Tool calls run from one model reply (the rest get an error); absent: DEFAULT_TOOL_CALLS_PER_TURN. */
    toolCallsPerTurn?: number;
    /** Process, memory and /tmp limits of every sandboxed command and MCP server; absent: DEFAULT_SANDBOX_LIMITS. */
    sandbox?: SandboxLimits;
  };
  /** MCP servers from yolo.config.ts (the project's `.mcp.json` is merged under them when a run starts). */
  mcpServers?: McpServers;
  /** MCP servers from the user config, merged under the project's (an entry of the same name there replaces one here). */
  userMcpServers?: McpServers;
  /** The project's `.mcp.json` text as trusted with the config (null: none); absent: read from `root` (tests). */
  mcpJson?: string | null;
}
